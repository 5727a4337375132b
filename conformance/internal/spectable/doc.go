// Package spectable holds the tables of the chat API spec (chat-api.md) that
// the checker probes, as data: the request body's fields with their types,
// presence and allowed values (section 4, "Request body"), the fields of an
// attachment (section 2), and the model sets (section 4, "Allowed values
// of model"; section 9.2).
//
// [Cases] generates, from those rows alone, every wrong request body the
// checker sends: for each field the JSON types it does not have (null,
// number, boolean, string, array, object; and the strings "true", "false"
// and "1" where a boolean is due), a missing or null required field, and
// for each enum an unknown value, the wrong case and surrounding spaces.
// A new row in the table is a new set of probes, check IDs and documented
// checks, with no other change.
//
// The rows are internal/chatapi's, the one place chatwire writes the spec's
// facts, with the names the checker gives them (Slug); conformance builds
// its probes and checks from them.
//
// # Files
//
//	table.go          Field and Type: the spec's request tables as data
//	cases.go          Case and Expect: the wrong bodies generated from the tables
package spectable
