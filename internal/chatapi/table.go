package chatapi

// A Type is the JSON type the spec's tables give a field.
type Type string

// The types of the spec's tables.
const (
	String  Type = "string"
	Boolean Type = "boolean"
	Array   Type = "array" // experimental_attachments: an array of Attachment
)

// A Field is one row of a table of the spec: the request body's (section
// 4) or the Attachment's (section 2).
type Field struct {
	Name     string // the JSON member, as the spec writes it
	Type     Type
	Required bool
	// Enum lists the allowed values of a string enum; nil for a field whose
	// values are open (content, backend: "Other values are not listed").
	Enum []string
}

// The allowed values of executionMode (section 4), in the spec's order.
const (
	ExecutionModeAuto     = "auto"
	ExecutionModePlanning = "planning"
	ExecutionModeBuild    = "build"
)

// ExecutionModes returns the allowed values of executionMode, in the
// spec's order. Each call returns a fresh slice.
func ExecutionModes() []string {
	return []string{ExecutionModeAuto, ExecutionModePlanning, ExecutionModeBuild}
}

// The allowed values of reasoningEffort (section 4), in the spec's order.
const (
	ReasoningEffortMedium = "medium"
	ReasoningEffortHigh   = "high"
)

// ReasoningEfforts returns the allowed values of reasoningEffort, in the
// spec's order. Each call returns a fresh slice.
func ReasoningEfforts() []string {
	return []string{ReasoningEffortMedium, ReasoningEffortHigh}
}

// RequestFields returns the rows of the request body's table (section 4,
// "Request body"), in the spec's order. Each call returns fresh slices.
func RequestFields() []Field {
	return []Field{
		{Name: "content", Type: String, Required: true},
		{Name: "stream", Type: Boolean},
		{Name: "backend", Type: String},
		{Name: "executionMode", Type: String, Enum: ExecutionModes()},
		{Name: "model", Type: String, Enum: CurrentModels()},
		{Name: "reasoningEffort", Type: String, Enum: ReasoningEfforts()},
		{Name: "experimental_attachments", Type: Array},
	}
}

// AttachmentFields returns the rows of the Attachment's table (section 2),
// the fields of each element of experimental_attachments, in the spec's
// order.
func AttachmentFields() []Field {
	return []Field{
		{Name: "url", Type: String, Required: true},
		{Name: "name", Type: String},
		{Name: "contentType", Type: String},
	}
}

// Optional returns the names of the fields that are not required, in
// order.
func Optional(fields []Field) []string {
	var names []string
	for _, f := range fields {
		if !f.Required {
			names = append(names, f.Name)
		}
	}
	return names
}
