package spectable_test

import (
	"fmt"

	"github.com/chatwire/chatwire/conformance/internal/spectable"
)

// Every row of the request body table becomes wrong bodies, by type.
func ExampleCases() {
	for _, c := range spectable.Cases() {
		if c.Field.Name == "stream" {
			fmt.Printf("%-20s %-8s %s\n", c.Name, c.Expect, c.What)
		}
	}
	// Output:
	// stream-null          either   stream is null
	// stream-number        rejected stream is the number 1
	// stream-string-true   rejected stream is the string "true"
	// stream-not-boolean   rejected stream is the string "false"
	// stream-string-1      rejected stream is the string "1"
	// stream-array         rejected stream is an array
	// stream-object        rejected stream is an object
}
