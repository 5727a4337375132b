package uimessage

import "github.com/chatwire/chatwire/uistream/sdk"

// The behaviour of each client release, as data: every switch below is
// one of uistream/sdk's Features (its table names the releases and the
// source each was read from), looked up once per Assembler so that the
// assembly reads plain booleans. The assembly reads the switches, never
// the release number.

// errors names how the release throws at a chunk the assembly cannot
// take.
type errorStyle uint8

const (
	// errorsUnchecked: the part looked up is used unchecked, so V8 throws a
	// TypeError; an output for an unknown call throws Error("tool-output-error
	// must be preceded by a tool-input-available"). 5.x
	// (sdk.FeatureMissingToolErrorV5).
	errorsUnchecked errorStyle = iota
	// errorsNoToolInvocation: as errorsUnchecked, but an unknown call throws
	// Error("no tool invocation found for tool call ID"). 6.0.0–6.0.34
	// (sdk.FeatureMissingToolErrorLower).
	errorsNoToolInvocation
	// errorsStream: UIMessageStreamError with a message naming the chunk and
	// its id. 6.0.35 and later, 7 (sdk.FeatureStreamErrorMessages,
	// sdk.FeatureMissingToolErrorStream).
	errorsStream
)

// behaviour holds the switches of one release.
type behaviour struct {
	release sdk.Release

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

	// toolTitle: tool parts carry title. 6, 7 (ToolTitle).
	toolTitle bool

	// outputByPart: an output or error chunk finds its part by toolCallId
	// whatever its type, goes by the part's type rather than the chunk's
	// dynamic flag, and passes its providerMetadata on. 6, 7
	// (OutputPathByExistingPart).
	outputByPart bool

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
	// update brings none, until streamingRawInput. 5.0.7, 6, 7 (uistream/sdk:
	// ToolPartRawInput).
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
	// InputErrorHonoursExistingType).
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

// behaviourOf returns the switches of release r.
func behaviourOf(r sdk.Release) behaviour {
	b := behaviour{
		release:              r,
		nullProtoIDs:         r.Has(sdk.FeatureNullPrototypeIDMaps),
		stepTools:            r.Has(sdk.FeatureToolLookupCurrentStepFirst),
		toolTitle:            r.Has(sdk.FeatureToolTitle),
		outputByPart:         r.Has(sdk.FeatureOutputPathByExistingPart),
		toolMetadata:         r.Has(sdk.FeatureToolMetadata),
		streamingRawInput:    r.Has(sdk.FeatureContinuedPartialToolCalls),
		inputEncoding:        r.Has(sdk.FeatureInputEncodingText),
		resetOnNewID:         r.Has(sdk.FeatureReadResetsOnMessageIDChange),
		finishStepKeepsParts: !r.Has(sdk.FeatureFinishStepClearsActiveParts),
		cutEscape:            r.Has(sdk.FeaturePartialJSONUnicodeEscape),
		resetStep:            r.Has(sdk.FeatureResetStep),
		reasoningPartID:      r.Has(sdk.FeatureReasoningPartID),
		resultMetadata:       r.Has(sdk.FeatureResultProviderMetadata),
		fileMetadata:         r.Has(sdk.FeatureFilePartProviderMetadata),
		outputErrorExecuted:  r.Has(sdk.FeatureOutputErrorProviderExecuted),
		inputErrorAsInput:    r.Has(sdk.FeatureToolInputError) && !r.Has(sdk.FeatureStaticToolInputErrorRawInput),
		outputToolMetadata:   r.Has(sdk.FeatureOutputToolMetadataFromChunk),
		rawInputParts:        r.Has(sdk.FeatureToolPartRawInput),
		preliminaryParts:     r.Has(sdk.FeaturePreliminary),
		dynamicExecuted:      r.Has(sdk.FeatureDynamicToolProviderExecuted),

		approvalSignature:         r.Has(sdk.FeatureApprovalSignature),
		approvalDescriptor:        r.Has(sdk.FeatureApprovalDescriptor),
		approvalAutomatic:         r.Has(sdk.FeatureApprovalAutomatic),
		approvalRequestReason:     r.Has(sdk.FeatureApprovalRequestReason),
		approvalResponseSignature: r.Has(sdk.FeatureApprovalResponseKeepsSignature),
		approvalSpread:            r.Has(sdk.FeatureApprovalResponseKeepsRequest),

		cutArrayStart:        !r.Has(sdk.FeaturePartialJSONArrayMinus),
		mergeSkipsProtoKeys:  r.Has(sdk.FeatureMergeSkipsPrototypeKeys),
		callMetadataAnyState: !r.Has(sdk.FeatureCallProviderMetadataInputAvailableOnly),
		inputErrorByPart:     r.Has(sdk.FeatureInputErrorHonoursExistingType),
		staticRetyped:        r.Has(sdk.FeatureStaticPartRetyped),
		approvalInputSchema:  r.Has(sdk.FeatureApprovalInputSchemaInput),
		textCitations:        r.Has(sdk.FeatureTextCitations),
		steeringMessage:      r.Has(sdk.FeatureSteeringMessage),
	}
	switch {
	case r.Has(sdk.FeatureMissingToolErrorStream):
		b.errors = errorsStream
	case r.Has(sdk.FeatureMissingToolErrorLower):
		b.errors = errorsNoToolInvocation
	}
	return b
}
