package mock

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/chatwire/chatwire/internal/sdkresume"
)

// sdkClientDir holds the Node program that reads the mock's UI streams with
// the real AI SDK clients (read.mjs, its package.json and lock).
var sdkClientDir = filepath.Join("testdata", "sdkclient")

// sdkCase is one stream the real clients read: a UI mock started with
// opts, a create with body.
type sdkCase struct {
	Name string          `json:"name"`
	URL  string          `json:"url"`
	Key  string          `json:"key"`
	Body json.RawMessage `json:"body"`
	opts Options
}

// sdkReadings is read.mjs's output.
type sdkReadings struct {
	Node    string   `json:"node"`
	Clients []string `json:"clients"`
	Cases   []struct {
		Name     string `json:"name"`
		Readings map[string]struct {
			Message *string `json:"message"`
			Error   *struct {
				Name    string `json:"name"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"readings"`
	} `json:"cases"`
}

// needSDKClients skips the test where node or the installed clients are
// missing, except under CI=true, where .ci/run installs them.
func needSDKClients(t *testing.T) string {
	t.Helper()
	return sdkresume.NeedNodePackages(t, "the real AI SDK clients", sdkClientDir, "ai-7.0.173")
}

// TestUIRealClients has the real clients of ai 5.0.0, 5.0.277, 6.0.0,
// 6.0.326, 7.0.0 and 7.0.173 (testdata/sdkclient) read the UI mock's
// streams through their own transport and assembly: the conformant stream
// (with and without SpecPartsOnly) and every variant read by every client
// without a throw, into the message client/uimessage assembles, byte for
// byte, the chat id in its metadata; each fault makes exactly the clients
// uiThrowers names throw.
// sdkNewest are the newest releases of the maintained majors the real
// clients include.
var sdkNewest = []string{"5.0.277", "6.0.326", "7.0.173"}

func TestUIRealClients(t *testing.T) {
	node := needSDKClients(t)
	cases := []*sdkCase{{Name: "conformant"}, {Name: "spec-parts-only", opts: Options{SpecPartsOnly: true}}}
	for _, v := range UIVariants() {
		cases = append(cases, &sdkCase{Name: "variant " + v.Name, opts: Options{Variants: []string{v.Name}}})
	}
	for _, f := range UIFaults() {
		cases = append(cases, &sdkCase{Name: "fault " + f.Name, opts: Options{Fault: f.Name}})
	}
	for i, c := range cases {
		c.opts.Seed = uint64(1000 + i)
		c.URL = uiMock(t, c.opts).URL
		c.Key = KeyValid
		c.Body = json.RawMessage(uiStreamBody)
	}
	in, err := json.Marshal(cases)
	require.NoError(t, err)
	out := sdkresume.RunNode(t, node, sdkClientDir, "read.mjs", in, 5*time.Minute)
	var got sdkReadings
	require.NoError(t, json.Unmarshal(out, &got), "read.mjs's output: %s", out)
	require.Equal(t, []string{"5.0.0", "5.0.277", "6.0.0", "6.0.326", "7.0.0", "7.0.173"}, got.Clients)
	require.Len(t, got.Cases, len(cases))
	t.Logf("node %s, clients %s, %d streams each", got.Node, strings.Join(got.Clients, " "), len(cases))

	for i, c := range cases {
		rc := got.Cases[i]
		require.Equal(t, c.Name, rc.Name)
		t.Run(c.Name, func(t *testing.T) {
			// A twin of the case's server, with its seed, answers the same
			// requests with the same ids: the k-th create is what client k read.
			twin := uiMock(t, c.opts)
			var throwers []string
			for _, rel := range got.Clients {
				r := rc.Readings[rel]
				_, body := send(t, twin, request{auth: bearer(KeyValid), body: uiStreamBody})
				if r.Error != nil {
					throwers = append(throwers, rel)
					msg, _, _ := strings.Cut(r.Error.Message, "\n")
					t.Logf("%s throws %s: %.160s", rel, r.Error.Name, msg)
					continue
				}
				if c.opts.Fault == faultUIEmptyStream {
					assert.Nil(t, r.Message, "%s yields no message from a stream without a chunk", rel)
					continue
				}
				require.NotNil(t, r.Message, "%s yielded a message", rel)
				want := readUIStream(t, body).messages[rel]
				assert.Equal(t, want, *r.Message, "%s: the message is the one client/uimessage assembles", rel)
				var m uiMessage
				require.NoError(t, json.Unmarshal([]byte(*r.Message), &m))
				switch {
				case c.opts.Fault == faultUIChatIDMissing:
					assert.Empty(t, m.Metadata.ChatID, rel)
				case c.opts.Fault == faultUIMessageIDChanges && slices.Contains(sdkNewest, rel):
					assert.Empty(t, m.Metadata.ChatID, "%s starts the message anew at the second start, without the metadata", rel)
				default:
					assert.True(t, strings.HasPrefix(m.Metadata.ChatID, "chat_"), "%s: the chat id in the metadata: %s", rel, *r.Message)
				}
			}
			want := []string(nil)
			if c.opts.Fault != "" {
				want = uiThrowers[c.opts.Fault]
			}
			assert.Equal(t, want, throwers, "the clients that throw")
			if c.opts.Fault == "" {
				assert.True(t, slices.Equal(throwers, nil), "no client throws")
			}
		})
	}
}
