package message

import (
	"errors"
	"math"
	"strconv"

	"github.com/chatwire/chatwire/internal/jsvalue"
)

// Usage is the token usage the SDK reports beside the message: its
// calculateLanguageModelUsage of the last finish_message part ("d") that
// carries usage, with TotalTokens the sum of the other two.
//
// A count the stream did not give is NaN: all three are NaN until such a
// part arrives, and a count that is not a JSON number is NaN, as in the SDK.
// NaN (and ±Inf, for numbers beyond the double range) marshal as null, as
// JSON.stringify writes them.
type Usage struct {
	PromptTokens     float64
	CompletionTokens float64
	TotalTokens      float64

	// reported is set once a finish_message part gave usage; the SDK's
	// default object lists completionTokens first, calculateLanguageModelUsage
	// promptTokens, and the JSON keeps each order.
	reported bool
}

// unknownUsage returns the SDK's usage before any finish_message part.
func unknownUsage() Usage {
	return Usage{PromptTokens: math.NaN(), CompletionTokens: math.NaN(), TotalTokens: math.NaN()}
}

// calculateUsage is the SDK's calculateLanguageModelUsage.
func calculateUsage(prompt, completion float64) Usage {
	return Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion, reported: true}
}

// Reported reports whether a finish_message part gave the usage.
func (u Usage) Reported() bool { return u.reported }

// MarshalJSON writes u as JSON.stringify writes the SDK's usage object.
func (u Usage) MarshalJSON() ([]byte, error) { return u.appendJSON(nil), nil }

func (u Usage) appendJSON(dst []byte) []byte {
	if u.reported {
		dst = append(dst, `{"promptTokens":`...)
		dst = jsvalue.AppendFloat(dst, u.PromptTokens)
		dst = append(dst, `,"completionTokens":`...)
		dst = jsvalue.AppendFloat(dst, u.CompletionTokens)
	} else {
		dst = append(dst, `{"completionTokens":`...)
		dst = jsvalue.AppendFloat(dst, u.CompletionTokens)
		dst = append(dst, `,"promptTokens":`...)
		dst = jsvalue.AppendFloat(dst, u.PromptTokens)
	}
	dst = append(dst, `,"totalTokens":`...)
	dst = jsvalue.AppendFloat(dst, u.TotalTokens)
	return append(dst, '}')
}

// number returns what the SDK makes of a usage count: the JSON number as a
// double (±Inf beyond its range), NaN for anything else.
func number(v []byte) float64 {
	if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return math.NaN()
	}
	// A plain integer of up to 15 digits is its double exactly.
	neg, d := v[0] == '-', v
	if neg {
		d = v[1:]
	}
	if len(d) > 0 && len(d) <= 15 {
		n := int64(0)
		for _, c := range d {
			if c < '0' || c > '9' {
				n = -1
				break
			}
			n = n*10 + int64(c-'0')
		}
		if n >= 0 {
			if neg {
				return -float64(n) // -0 too
			}
			return float64(n)
		}
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return math.NaN()
	}
	return f
}
