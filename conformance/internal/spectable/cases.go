package spectable

import (
	"strconv"
	"strings"
)

// Expect is what the spec allows as the answer to a generated body.
type Expect string

// The expectations.
const (
	// Rejected: the body breaks the table (a wrong type, a value outside
	// an enum, a required field missing or null); the service must answer
	// 400 or 422 (section 7.2).
	Rejected Expect = "rejected"
	// Either: the spec does not say; an optional field given null may be
	// taken as absent (200) or refused (400 or 422), but a server error is
	// neither.
	Either Expect = "either"
)

// A Case is one generated request body with one field wrong.
type Case struct {
	Name   string // stable: "<slug>-<what>", such as "stream-string-true"; see [Cases]
	Field  Field
	What   string // what is wrong, for titles: `stream is the string "true"`
	Body   []byte // the whole JSON request body
	Expect Expect
}

// Prompt and AttachmentURL are the valid values the generated bodies carry
// beside the field under test.
const (
	Prompt        = "chatwire conformance probe: reply with one short sentence."
	AttachmentURL = "https://example.com/chatwire-probe.png"
)

// legacyNames keeps the names cases had before the table generated them,
// so check IDs never change: slug and generated suffix to the old name.
var legacyNames = map[string]string{
	"content-number":                "content-not-string",
	"stream-string-false":           "stream-not-boolean",
	"backend-number":                "backend-not-string",
	"attachments-object":            "attachments-not-array",
	"attachment-string":             "attachment-not-object",
	"attachment-url-number":         "attachment-url-not-string",
	"attachment-name-number":        "attachment-name-not-string",
	"attachment-contentType-number": "attachment-contentType-not-string",
	"model-number":                  "model-not-string",
}

// wrongValue is one generated value of a field.
type wrongValue struct {
	suffix string // appended to the field's slug
	json   string // the value; "" means the member is left out
	what   string
}

// wrongValues returns the values a field of type t must not take, besides
// null: every other JSON type, and for a boolean the strings a lenient
// service might coerce.
func wrongValues(f Field) []wrongValue {
	valid := `"x"`
	if f.Enum != nil {
		valid = strconv.Quote(f.Enum[0])
	}
	var vs []wrongValue
	switch f.Type {
	case String:
		vs = []wrongValue{{"number", "42", "the number 42"}, {"boolean", "true", "the boolean true"},
			{"array", "[" + valid + "]", "an array"}, {"object", "{}", "an object"}}
	case Boolean:
		vs = []wrongValue{{"number", "1", "the number 1"}, {"string-true", `"true"`, `the string "true"`},
			{"string-false", `"false"`, `the string "false"`}, {"string-1", `"1"`, `the string "1"`},
			{"array", "[true]", "an array"}, {"object", "{}", "an object"}}
	case Array:
		vs = []wrongValue{{"number", "42", "the number 42"}, {"boolean", "true", "the boolean true"},
			{"string", strconv.Quote(AttachmentURL), "a string"}, {"object", `{"url":` + strconv.Quote(AttachmentURL) + `}`, "an object, not an array of one"}}
	case Object:
		vs = []wrongValue{{"null", "null", "null"}, {"number", "42", "the number 42"}, {"boolean", "true", "the boolean true"},
			{"string", strconv.Quote(AttachmentURL), "a string"}, {"array", "[]", "an array"}}
	}
	if f.Enum != nil {
		v := f.Enum[0]
		unknown := "chatwire-no-such-" + strings.ToLower(f.Name)
		if f.Name == "reasoningEffort" {
			unknown = "low" // the value the spec leaves out between medium and high
		}
		vs = append(vs, wrongValue{"unknown", strconv.Quote(unknown), "outside " + strings.Join(f.Enum, ", ")},
			wrongValue{"wrong-case", strconv.Quote(strings.ToUpper(v)), "in the wrong case (" + strconv.Quote(strings.ToUpper(v)) + ")"},
			wrongValue{"spaces", strconv.Quote(" " + v + " "), "padded with spaces (" + strconv.Quote(" "+v+" ") + ")"})
	}
	return vs
}

// Cases returns every generated body, field by field in table order: for
// a required field "missing" and "null" (rejected), for an optional one
// "null" (either), then the wrong types and enum values of [wrongValues]
// (rejected). The attachment element itself ("attachment-…") comes before
// the attachment's fields.
func Cases() []Case {
	var cs []Case
	for _, f := range RequestFields() {
		cs = append(cs, fieldCases(f)...)
		if f.Type == Array {
			element := Field{Name: "experimental_attachments[0]", Slug: "attachment", Type: Object, Required: true}
			for _, v := range wrongValues(element) {
				cs = append(cs, newCase(element, v, Rejected, "["+v.json+"]"))
			}
			for _, af := range AttachmentFields() {
				cs = append(cs, fieldCases(af)...)
			}
		}
	}
	return cs
}

// fieldCases returns the cases of one field.
func fieldCases(f Field) []Case {
	var cs []Case
	if f.Required {
		cs = append(cs, caseOf(f, wrongValue{"missing", "", "missing"}, Rejected))
		cs = append(cs, caseOf(f, wrongValue{"null", "null", "null (as wrong as missing: the field is required)"}, Rejected))
	} else {
		cs = append(cs, caseOf(f, wrongValue{"null", "null", "null"}, Either))
	}
	for _, v := range wrongValues(f) {
		cs = append(cs, caseOf(f, v, Rejected))
	}
	return cs
}

// caseOf builds the body of a case of field f: the field given v, beside
// valid values of the other required fields.
func caseOf(f Field, v wrongValue, e Expect) Case {
	if !f.Nested {
		if f.Name == "content" {
			members := `"stream":true`
			if v.json != "" {
				members = `"content":` + v.json + "," + members
			}
			return newCaseBody(f, v, e, "{"+members+"}")
		}
		return newCaseBody(f, v, e, `{"content":`+strconv.Quote(Prompt)+`,"`+f.Name+`":`+v.json+`}`)
	}
	var members []string
	for _, af := range AttachmentFields() {
		switch {
		case af.Name == f.Name && v.json != "":
			members = append(members, `"`+af.Name+`":`+v.json)
		case af.Name != f.Name && af.Required:
			members = append(members, `"`+af.Name+`":`+strconv.Quote(AttachmentURL))
		}
	}
	if v.json == "" { // the required url is missing
		members = []string{`"name":"probe.png"`}
	}
	return newCase(Field{Name: "experimental_attachments", Slug: f.Slug, Type: f.Type, Required: f.Required, Nested: true, Enum: f.Enum},
		wrongValue{v.suffix, "[{" + strings.Join(members, ",") + "}]", v.what}, e, "")
}

// newCase builds a case whose field f holds raw (or, when raw is "", v's
// value) beside a valid content.
func newCase(f Field, v wrongValue, e Expect, raw string) Case {
	if raw == "" {
		raw = v.json
	}
	return newCaseBody(f, v, e, `{"content":`+strconv.Quote(Prompt)+`,"experimental_attachments":`+raw+`}`)
}

func newCaseBody(f Field, v wrongValue, e Expect, body string) Case {
	name := f.Slug + "-" + v.suffix
	if old, ok := legacyNames[name]; ok {
		name = old
	}
	subject := f.Name
	if f.Nested {
		subject = "an attachment's " + strings.TrimPrefix(f.Slug, "attachment-")
	} else if f.Slug == "attachment" {
		subject = "an attachment"
	}
	what := subject + " " + v.what
	if v.json != "" {
		what = subject + " is " + v.what
	}
	return Case{Name: name, Field: f, What: what, Body: []byte(body), Expect: e}
}
