package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/chatwire/chatwire/linestream"
)

// The error codes of the mock's JSON error bodies. The spec shows no error
// body or codes (section 7.3); these are the mock's choice.
const (
	codeInvalidRequest   = "invalid_request"      // 400 forced by X-Mock-Scenario
	codeContentType      = "invalid_content_type" // 400
	codeInvalidJSON      = "invalid_json"         // 400
	codeInvalidBody      = "invalid_body"         // 400: not a JSON object
	codeBodyTooLarge     = "body_too_large"       // 400
	codeInvalidScenario  = "invalid_scenario"     // 400: unknown X-Mock-Scenario value
	codeUnauthorized     = "unauthorized"         // 401
	codeCredits          = "insufficient_credits" // 402
	codeForbidden        = "forbidden"            // 403
	codeNotFound         = "not_found"            // 404
	codeMethodNotAllowed = "method_not_allowed"   // 405
	codeValidation       = "validation_error"     // 422
	codeRateLimited      = "rate_limited"         // 429
	codeServerError      = "server_error"         // 500
)

// errorBody is the JSON error body: {"error":{"code":…,"message":…}}, with
// "param" naming the field of a validation error, and "why" the bound that
// evicted a stream (stream_evicted).
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Param   string `json:"param,omitempty"`
		Why     string `json:"why,omitempty"`
	} `json:"error"`
}

// writeError writes a JSON error response. With the error-with-stream fault
// a 401 is written as a line stream instead.
func (s *Server) writeError(w *response, status int, code, param, msg string) {
	s.writeErrorWhy(w, status, code, param, msg, "")
}

// writeErrorWhy is writeError with the why of an eviction.
func (s *Server) writeErrorWhy(w *response, status int, code, param, msg, why string) {
	if status == http.StatusUnauthorized && s.fault == faultErrorWithStream {
		linestream.SetHeaders(w.Header())
		w.WriteHeader(status)
		lw := linestream.NewWriter(w)
		lw.ChatID("chat_" + strings.TrimPrefix(w.requestID, "req_"))
		lw.Error(msg)
		return
	}
	switch {
	case s.variant[variantAll400] && status == http.StatusUnprocessableEntity:
		status = http.StatusBadRequest
	case s.variant[variantAll422] && (code == codeInvalidBody || code == codeContentType):
		status = http.StatusUnprocessableEntity
	}
	switch {
	case s.variant[variantErrorShape]:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprintf(w, "%d %s: %s\n", status, http.StatusText(status), msg)
		return
	case s.variant[variantExtraFields]:
		e := map[string]string{"code": code, "message": msg, "param": param}
		if why != "" {
			e["why"] = why
		}
		writeJSON(w, status, map[string]any{"error": e, "requestId": w.requestID, "docs": "https://example.com/errors/" + code})
		return
	}
	var b errorBody
	b.Error.Code, b.Error.Message, b.Error.Param, b.Error.Why = code, msg, param, why
	writeJSON(w, status, &b)
}

// writeJSON writes v as a JSON response body ending in a newline, with
// '<', '>' and '&' unescaped so that curl shows messages as they read.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // only the mock's own types are written
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body.Bytes())
}
