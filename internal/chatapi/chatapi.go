package chatapi

// ChatPath is the path of the create operation, POST /api/chat (section
// 4), relative to the base URL.
const ChatPath = "/api/chat"

// BackendDefault is the default of the request's backend field (section
// 4): what a request without one gets.
const BackendDefault = "DEFAULT"

// Statuses returns the statuses of the status table of POST /api/chat
// (section 4), in its order. Each call returns a fresh slice.
func Statuses() []int { return []int{200, 400, 401, 402, 403, 422, 429, 500} }

// EnvAPIKey is the environment variable chatwire's client, checker and
// meter read the API key from. The spec names no variable; this is
// chatwire's.
const EnvAPIKey = "CHATWIRE_API_KEY"
