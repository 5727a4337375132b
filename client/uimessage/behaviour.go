package uimessage

// The behaviour of each client release, as data: every switch below names
// the first and the last release it holds for, and where it was read.
// Where uistream/sdk (its Feature table, from every release's source)
// pins a first release between two installed ones, its release is taken.
// The SDK's source is read at the tags of github.com/vercel/ai (ai@X.Y.Z,
// packages/ai/src/ui/process-ui-message-stream.ts and
// packages/ai/src/ui-message-stream/read-ui-message-stream.ts); the
// releases after the last tag there (5.0.244, 6.0.264, 7.0.77) from the
// npm packages' dist/index.mjs (and src/ where the package ships it). The
// boundaries are the installed releases of corpus/ui that first differ;
// where the true first release lies between two installed ones, the
// comment says so.

// span is a range of releases, both ends included.
type span struct{ first, last Release }

func (s span) holds(r Release) bool { return !r.Less(s.first) && !s.last.Less(r) }

func rel(major, minor, patch int) Release { return Release{major, minor, patch} }

var (
	all5 = span{rel(5, 0, 0), rel(5, 999, 999)}
	all6 = span{rel(6, 0, 0), rel(6, 999, 999)}
	all7 = span{rel(7, 0, 0), rel(7, 999, 999)}
)

// switchTable is one switch: on for the releases of any of its spans.
type switchTable []span

func (t switchTable) on(r Release) bool {
	for _, s := range t {
		if s.holds(r) {
			return true
		}
	}
	return false
}

// errors names how the release throws at a chunk the assembly cannot
// take.
type errorStyle uint8

const (
	// errorsUnchecked: the part looked up is used unchecked, so V8 throws a
	// TypeError; an output for an unknown call throws Error("tool-output-error
	// must be preceded by a tool-input-available"). 5.x (dist: no
	// UIMessageStreamError in processUIMessageStream).
	errorsUnchecked errorStyle = iota
	// errorsNoToolInvocation: as errorsUnchecked, but an unknown call throws
	// Error("no tool invocation found for tool call ID"). 6.0.0–6.0.34.
	errorsNoToolInvocation
	// errorsStream: UIMessageStreamError with a message naming the chunk and
	// its id. 6.0.35 and later, 7 (ai@6.0.35: error/ui-message-stream-error.ts).
	errorsStream
)

// behaviour holds the switches of one release.
type behaviour struct {
	release Release

	errors errorStyle

	// nullProtoIDs: the maps of active parts by id are Object.create(null)
	// (util/create-id-map.ts). Before, an id such as "toString" finds
	// Object.prototype's member. From 5.0.198 and 6.0.200 (corpus/ui:
	// edge/text-delta-id-tostring; uistream/sdk: NullPrototypeIDMaps), all
	// of 7.
	nullProtoIDs bool

	// stepTools: tool parts are looked up in the current step first
	// (getCurrentStepParts), an output's then in the whole message from its
	// end; a tool chunk for a call of an earlier step makes a new part.
	// Before, the first tool part of the whole message with the id is taken.
	// 5.0.219, 6.0.233, 7.0.33 (uistream/sdk: ToolLookupCurrentStepFirst;
	// consistent with the installed releases' dist).
	stepTools bool

	// toolLayout6: tool parts carry title, and an output or error chunk
	// goes by the part's type rather than the chunk's dynamic flag. 6, 7
	// (ai@6.0.0).
	toolLayout6 bool

	// toolMetadata: tool parts carry toolMetadata. 6.0.176, 7.
	toolMetadata bool

	// streamingRawInput: an input-streaming tool part holds rawInput, the
	// text so far, and a continued message's input-streaming tool parts go
	// on streaming. 5.0.270, 6.0.297, 7.0.122 (uistream/sdk:
	// ContinuedPartialToolCalls).
	streamingRawInput bool

	// inputEncoding: tool-input-start's inputEncoding ("text" streams the
	// input as a string). 6.0.308, 7.0.142 (uistream/sdk: InputEncodingText).
	inputEncoding bool

	// resetOnNewID: a start chunk whose messageId differs from the
	// message's starts a new message (resetStateOnMessageIdChange).
	// 5.0.274, 6.0.303, 7.0.137 (found by the corpus generator).
	resetOnNewID bool

	// finishStepKeepsParts: finish-step no longer forgets the active text
	// and reasoning parts, so a delta after it appends. 7.0.79 (found).
	finishStepKeepsParts bool

	// cutEscape: parsePartialJson's fixJson cuts a partial \u escape
	// (util/fix-json.ts). 6.0.208, 7.
	cutEscape bool

	// resetStep: the reset-step chunk drops the current step's parts.
	// 7.0.70.
	resetStep bool

	// resultMetadata: an output's providerMetadata goes to the tool part's
	// resultProviderMetadata, and tool-input-start passes its
	// providerMetadata on. 6.0.120 (uistream/sdk: ResultProviderMetadata;
	// the tool-input-start half is seen from 6.0.175 on, its first release
	// is not pinned down), 7.
	resultMetadata bool

	// fileMetadata: a file part keeps the chunk's providerMetadata. 6.0.114
	// (uistream/sdk: FilePartProviderMetadata), 7.
	fileMetadata bool

	// outputErrorExecuted: a tool-output-error passes the chunk's
	// providerExecuted on to the part. 5.0.86 (uistream/sdk:
	// DynamicToolProviderExecuted, the same change), 6, 7.
	outputErrorExecuted bool

	// inputErrorAsInput: a tool-input-error on a static tool keeps the
	// chunk's input as the part's input (before: as rawInput, the input
	// undefined). 7.0.119 (uistream/sdk: StaticToolInputErrorRawInput).
	inputErrorAsInput bool

	// outputToolMetadata: an output or error chunk's toolMetadata replaces
	// the part's. 6.0.296, 7.0.120 (uistream/sdk:
	// OutputToolMetadataFromChunk).
	outputToolMetadata bool

	// rawInputParts: tool parts carry rawInput (tool-input-error's input
	// of a static tool); a dynamic tool part keeps its rawInput when an
	// update brings none, until streamingRawInput. 5.0.7, 6, 7.
	rawInputParts bool

	// preliminaryParts: tool parts carry preliminary. 5.0.11, 6, 7.
	preliminaryParts bool

	// dynamicExecuted: dynamic tool parts carry providerExecuted. 5.0.86
	// (uistream/sdk: DynamicToolProviderExecuted), 6, 7.
	dynamicExecuted bool

	// The approval object of a tool part (6 and 7; dist of each release):
	// approvalSignature: the request's signature (6.0.202; 7);
	// approvalDescriptor: its approvalDescriptor as descriptor (6.0.274;
	// 7.0.87); approvalAutomatic: its isAutomatic, kept by the response (7);
	// approvalRequestReason: its reason as requestReason (7.0.82);
	// approvalResponseSignature: the response keeps the request's signature
	// (7.0.19, until the spread); approvalSpread: the response spreads the
	// request's approval and sets id, approved and reason over it (7.0.87).
	// The first releases are uistream/sdk's (Approval*), consistent with the
	// installed releases' dist.
	approvalSignature, approvalDescriptor, approvalAutomatic, approvalRequestReason,
	approvalResponseSignature, approvalSpread bool

	// cutArrayStart: parsePartialJson's fixJson cuts a lone '-' that starts
	// an array element (util/fix-json.ts). 7.0.158 (uistream/sdk:
	// PartialJSONArrayMinus).
	cutArrayStart bool

	// mergeSkipsProtoKeys: mergeObjects skips the keys __proto__,
	// constructor and prototype (util/merge-objects.ts). 5.0.181, 6.0.171,
	// 7 (uistream/sdk: MergeSkipsPrototypeKeys).
	mergeSkipsProtoKeys bool

	// callMetadataAnyState: a tool chunk's providerMetadata becomes the
	// part's callProviderMetadata in any state (before: only when the part
	// is input-available). 6.0.39, 7 (uistream/sdk:
	// CallProviderMetadataInputAvailableOnly).
	callMetadataAnyState bool

	// inputErrorByPart: tool-input-error updates an existing part of the
	// call by its type, dynamic or static. 6.0.101, 7 (uistream/sdk:
	// InputAvailableHonoursExistingType).
	inputErrorByPart bool

	// staticRetyped: an update of a static tool part sets its type from the
	// tool name. 6.0.313, 7.0.147 (uistream/sdk: StaticPartRetyped).
	staticRetyped bool

	// approvalInputSchema: the request's inputSchemaInput goes into the
	// approval. 6.0.290, 7.0.113 (uistream/sdk: ApprovalInputSchemaInput).
	approvalInputSchema bool

	// textCitations: text-end's citations go onto the text part. 7.0.138.
	textCitations bool

	// steeringMessage: a steering-message chunk pushes a part {type, id,
	// parts}. 7.0.163.
	steeringMessage bool

	// reasoningPartID: a reasoning part holds its id. 5.0.234, 6.0.253,
	// 7.0.63 (dist; uistream/sdk: ReasoningPartID).
	reasoningPartID bool
}

var (
	tNullProtoIDs        = switchTable{{rel(5, 0, 198), all5.last}, {rel(6, 0, 200), all6.last}, all7}
	tStepTools           = switchTable{{rel(5, 0, 219), all5.last}, {rel(6, 0, 233), all6.last}, {rel(7, 0, 33), all7.last}}
	tToolLayout6         = switchTable{all6, all7}
	tToolMetadata        = switchTable{{rel(6, 0, 176), all6.last}, all7}
	tStreamingRawInput   = switchTable{{rel(5, 0, 270), all5.last}, {rel(6, 0, 297), all6.last}, {rel(7, 0, 122), all7.last}}
	tInputEncoding       = switchTable{{rel(6, 0, 308), all6.last}, {rel(7, 0, 142), all7.last}}
	tResetOnNewID        = switchTable{{rel(5, 0, 274), all5.last}, {rel(6, 0, 303), all6.last}, {rel(7, 0, 137), all7.last}}
	tFinishStepKeeps     = switchTable{{rel(7, 0, 79), all7.last}}
	tCutEscape           = switchTable{{rel(6, 0, 208), all6.last}, all7}
	tResetStep           = switchTable{{rel(7, 0, 70), all7.last}}
	tResultMetadata      = switchTable{{rel(6, 0, 120), all6.last}, all7}
	tFileMetadata        = switchTable{{rel(6, 0, 114), all6.last}, all7}
	tReasoningPartID     = switchTable{{rel(5, 0, 234), all5.last}, {rel(6, 0, 253), all6.last}, {rel(7, 0, 63), all7.last}}
	tOutputErrorExecuted = switchTable{{rel(5, 0, 86), all5.last}, all6, all7}
	tOutputToolMetadata  = switchTable{{rel(6, 0, 296), all6.last}, {rel(7, 0, 120), all7.last}}
	tRawInputParts       = switchTable{{rel(5, 0, 7), all5.last}, all6, all7}
	tPreliminaryParts    = switchTable{{rel(5, 0, 11), all5.last}, all6, all7}
	tDynamicExecuted     = switchTable{{rel(5, 0, 86), all5.last}, all6, all7}
	tApprovalSignature   = switchTable{{rel(6, 0, 202), all6.last}, all7}
	tApprovalDescriptor  = switchTable{{rel(6, 0, 274), all6.last}, {rel(7, 0, 87), all7.last}}
	tApprovalAutomatic   = switchTable{all7}
	tApprovalReason      = switchTable{{rel(7, 0, 82), all7.last}}
	tApprovalRespSig     = switchTable{{rel(7, 0, 19), all7.last}}
	tApprovalSpread      = switchTable{{rel(7, 0, 87), all7.last}}
	tInputErrorAsInput   = switchTable{{rel(7, 0, 119), all7.last}}
	tCutArrayStart       = switchTable{{rel(7, 0, 158), all7.last}}
	tMergeSkipsProto     = switchTable{{rel(5, 0, 181), all5.last}, {rel(6, 0, 171), all6.last}, all7}
	tCallMetadataAny     = switchTable{{rel(6, 0, 39), all6.last}, all7}
	tInputErrorByPart    = switchTable{{rel(6, 0, 101), all6.last}, all7}
	tStaticRetyped       = switchTable{{rel(6, 0, 313), all6.last}, {rel(7, 0, 147), all7.last}}
	tApprovalInputSchema = switchTable{{rel(6, 0, 290), all6.last}, {rel(7, 0, 113), all7.last}}
	tTextCitations       = switchTable{{rel(7, 0, 138), all7.last}}
	tSteeringMessage     = switchTable{{rel(7, 0, 163), all7.last}}
	tErrorsStream        = switchTable{{rel(6, 0, 35), all6.last}, all7}
	tErrorsNoInvocation6 = switchTable{{rel(6, 0, 0), rel(6, 0, 34)}}
)

// behaviourOf returns the switches of release r.
func behaviourOf(r Release) behaviour {
	b := behaviour{
		release:              r,
		nullProtoIDs:         tNullProtoIDs.on(r),
		stepTools:            tStepTools.on(r),
		toolLayout6:          tToolLayout6.on(r),
		toolMetadata:         tToolMetadata.on(r),
		streamingRawInput:    tStreamingRawInput.on(r),
		inputEncoding:        tInputEncoding.on(r),
		resetOnNewID:         tResetOnNewID.on(r),
		finishStepKeepsParts: tFinishStepKeeps.on(r),
		cutEscape:            tCutEscape.on(r),
		resetStep:            tResetStep.on(r),
		reasoningPartID:      tReasoningPartID.on(r),
		resultMetadata:       tResultMetadata.on(r),
		fileMetadata:         tFileMetadata.on(r),
		outputErrorExecuted:  tOutputErrorExecuted.on(r),
		inputErrorAsInput:    tInputErrorAsInput.on(r),
		outputToolMetadata:   tOutputToolMetadata.on(r),
		rawInputParts:        tRawInputParts.on(r),
		preliminaryParts:     tPreliminaryParts.on(r),
		dynamicExecuted:      tDynamicExecuted.on(r),

		approvalSignature:         tApprovalSignature.on(r),
		approvalDescriptor:        tApprovalDescriptor.on(r),
		approvalAutomatic:         tApprovalAutomatic.on(r),
		approvalRequestReason:     tApprovalReason.on(r),
		approvalResponseSignature: tApprovalRespSig.on(r),
		approvalSpread:            tApprovalSpread.on(r),

		cutArrayStart:        tCutArrayStart.on(r),
		mergeSkipsProtoKeys:  tMergeSkipsProto.on(r),
		callMetadataAnyState: tCallMetadataAny.on(r),
		inputErrorByPart:     tInputErrorByPart.on(r),
		staticRetyped:        tStaticRetyped.on(r),
		approvalInputSchema:  tApprovalInputSchema.on(r),
		textCitations:        tTextCitations.on(r),
		steeringMessage:      tSteeringMessage.on(r),
	}
	switch {
	case tErrorsStream.on(r):
		b.errors = errorsStream
	case tErrorsNoInvocation6.on(r):
		b.errors = errorsNoToolInvocation
	}
	return b
}
