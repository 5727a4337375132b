package transcript

import "strings"

// FileName returns the file name of the transcript of probe: the probe ID
// with every byte other than ASCII letters, digits, '.', '-' and '_' turned
// into '_', a trailing ']' dropped, and [Ext] added. For example
// "chat/4.5/first-line-code-2" becomes "chat_4.5_first-line-code-2.chatlog.jsonl"
// and "chat/4.3/model-current-accepted[gamma-k3]" becomes
// "chat_4.3_model-current-accepted_gamma-k3.chatlog.jsonl". An empty ID
// becomes "probe".
func FileName(probe string) string {
	probe = strings.TrimSuffix(probe, "]")
	if probe == "" {
		probe = "probe"
	}
	b := []byte(probe)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if b[0] == '.' {
		b[0] = '_' // no hidden files
	}
	return string(b) + Ext
}
