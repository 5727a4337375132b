package spectable

import "github.com/chatwire/chatwire/internal/chatapi"

// Type is the JSON type the spec gives a field.
type Type string

// The types of the spec's tables.
const (
	String  Type = Type(chatapi.String)
	Boolean Type = Type(chatapi.Boolean)
	Array   Type = Type(chatapi.Array) // experimental_attachments: an array of Attachment
	Object  Type = "object"            // an Attachment
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
	var fields []Field
	for _, f := range chatapi.RequestFields() {
		slug := f.Name
		if f.Type == chatapi.Array { // experimental_attachments
			slug = "attachments"
		}
		fields = append(fields, Field{Name: f.Name, Slug: slug, Type: Type(f.Type), Required: f.Required, Enum: f.Enum})
	}
	return fields
}

// AttachmentFields returns the rows of the spec's Attachment table
// (section 2), in the spec's order.
func AttachmentFields() []Field {
	var fields []Field
	for _, f := range chatapi.AttachmentFields() {
		fields = append(fields, Field{Name: f.Name, Slug: "attachment-" + f.Name, Type: Type(f.Type), Required: f.Required,
			Enum: f.Enum, Nested: true})
	}
	return fields
}

// CurrentModels returns the spec's current set of model identifiers
// (section 4, "Allowed values of model").
func CurrentModels() []string { return chatapi.CurrentModels() }

// EarlierModels returns the spec's earlier set of model identifiers, which a
// builder may accept (section 9, item 2).
func EarlierModels() []string { return chatapi.EarlierModels() }
