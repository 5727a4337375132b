package spectable

// Type is the JSON type the spec gives a field.
type Type string

// The types of the spec's tables.
const (
	String  Type = "string"
	Boolean Type = "boolean"
	Array   Type = "array"  // experimental_attachments: an array of Attachment
	Object  Type = "object" // an Attachment
)

// A Field is one row of a spec table.
type Field struct {
	Name     string // the JSON member, as the spec writes it
	Slug     string // how case names call it: "content", "attachments", "attachment-url"
	Type     Type
	Required bool
	// Enum lists the allowed values of a string enum; nil for a field whose
	// values are open (content, backend: "Other values are not listed", so
	// an unknown string is not wrong).
	Enum []string
	// Nested marks a field of an attachment (section 2), sent inside the
	// one element of experimental_attachments.
	Nested bool
}

// RequestFields returns the rows of the spec's request body table (section
// 4, "Request body"), in the spec's order.
func RequestFields() []Field {
	return []Field{
		{Name: "content", Slug: "content", Type: String, Required: true},
		{Name: "stream", Slug: "stream", Type: Boolean},
		{Name: "backend", Slug: "backend", Type: String},
		{Name: "executionMode", Slug: "executionMode", Type: String, Enum: []string{"auto", "planning", "build"}},
		{Name: "model", Slug: "model", Type: String, Enum: CurrentModels()},
		{Name: "reasoningEffort", Slug: "reasoningEffort", Type: String, Enum: []string{"medium", "high"}},
		{Name: "experimental_attachments", Slug: "attachments", Type: Array},
	}
}

// AttachmentFields returns the rows of the spec's Attachment table
// (section 2), in the spec's order.
func AttachmentFields() []Field {
	return []Field{
		{Name: "url", Slug: "attachment-url", Type: String, Required: true, Nested: true},
		{Name: "name", Slug: "attachment-name", Type: String, Nested: true},
		{Name: "contentType", Slug: "attachment-contentType", Type: String, Nested: true},
	}
}

// CurrentModels returns the spec's current set of model identifiers
// (section 4, "Allowed values of model").
func CurrentModels() []string {
	return []string{"alpha-5.6-terra", "alpha-6.1-sol", "alpha-6-luna", "beta-4-6", "gamma-k3",
		"delta-5-5", "epsilon-5-5", "zeta-5-3", "zeta-5-3-flash"}
}

// EarlierModels returns the spec's earlier set of model identifiers, which a
// builder may accept (section 9, item 2).
func EarlierModels() []string {
	return []string{"delta-4-5", "delta-4-6", "epsilon-4-5", "epsilon-4-6"}
}
