package fuzz

import (
	"bytes"
	"testing"

	"github.com/chatwire/chatwire/client/bridge"
	"github.com/chatwire/chatwire/linestream"
	"github.com/chatwire/chatwire/uistream"
	"github.com/chatwire/chatwire/uistream/sdk"
)

// FuzzBridge translates any bytes both ways with client/bridge, as they
// are and as the structured streams GenStream and GenUIStream build from
// them: the translators never panic, always write a valid stream of the
// other protocol (UI: strict framing, every chunk taken by the newest
// client of each maintained major, [DONE] last; v4: strict lines of the
// shapes the v4 client takes), and fail only where the input is bad.
func FuzzBridge(f *testing.F) {
	for _, s := range corpusStreams(f) {
		f.Add(s.Data)
	}
	for _, s := range uiSeeds(f) {
		f.Add(s)
	}
	toUI := bridge.NewToUI(bridge.Options{})
	toV4 := bridge.NewToV4(bridge.Options{})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxInput {
			t.Skip("input larger than maxInput")
		}
		for _, in := range [][]byte{data, GenStream(data), GenUIStream(data)} {
			toUI.Reset()
			var out bytes.Buffer
			_, err := bridge.V4ToUI(&out, bytes.NewReader(in), toUI)
			checkUI(t, in, out.Bytes())
			if err == nil && !v4Reads(in) {
				t.Fatalf("V4ToUI took a stream the v4 parser rejects:\n%q", in)
			}
			if err != nil && v4Reads(in) {
				t.Fatalf("V4ToUI failed on a stream the v4 parser reads: %v\n%q", err, in)
			}

			toV4.Reset()
			out.Reset()
			_, err = bridge.UIToV4(&out, bytes.NewReader(in), toV4)
			checkV4(t, in, out.Bytes())
			if err != nil && uiReads(in) {
				t.Fatalf("UIToV4 failed on a stream a maintained client reads: %v\n%q", err, in)
			}
		}
	})
}

// checkUI fails t unless out is a UI stream every maintained client takes.
func checkUI(t *testing.T, in, out []byte) {
	t.Helper()
	d := uistream.NewDecoder(bytes.NewReader(out))
	d.SetStrict(true)
	for d.Next() {
		for _, r := range sdk.NewestOfEach() {
			if err := r.CheckChunk(d.Chunk().Data); err != nil {
				t.Fatalf("V4ToUI wrote a chunk ai %s rejects: %v\nin:  %q\nout: %q", r, err, in, out)
			}
		}
	}
	if err := d.Err(); err != nil || len(d.Warnings()) > 0 || !bytes.HasSuffix(out, []byte("data: [DONE]\n\n")) {
		t.Fatalf("V4ToUI wrote a bad stream (%v, %v)\nin:  %q\nout: %q", err, d.Warnings(), in, out)
	}
}

// checkV4 fails t unless out is a v4 stream the v4 client's strict parser
// takes.
func checkV4(t *testing.T, in, out []byte) {
	t.Helper()
	d := linestream.NewDecoder(bytes.NewReader(out))
	d.SetStrict(true)
	for d.Next() {
		if err := d.Part().CheckShape(); err != nil {
			t.Fatalf("UIToV4 wrote a bad part: %v\nin:  %q\nout: %q", err, in, out)
		}
	}
	if err := d.Err(); err != nil {
		t.Fatalf("UIToV4 wrote a bad stream: %v\nin:  %q\nout: %q", err, in, out)
	}
}

// v4Reads tells whether linestream reads in whole with every part of a
// known code in the shape the v4 client takes, or of an unknown code
// (which the bridge drops as a loss).
func v4Reads(in []byte) bool {
	d := linestream.NewDecoder(bytes.NewReader(in))
	for d.Next() {
		if d.Part().CheckShape() != nil {
			return false
		}
	}
	return d.Err() == nil
}

// uiReads tells whether uistream reads in whole, every chunk of a known
// type taken by the newest client of some maintained major.
func uiReads(in []byte) bool {
	d := uistream.NewDecoder(bytes.NewReader(in))
	for d.Next() {
		c := d.Chunk()
		if c.Kind == uistream.ChunkUnknown || c.Kind.Legacy() {
			continue
		}
		taken := false
		for _, r := range sdk.NewestOfEach() {
			taken = taken || r.CheckChunk(c.Data) == nil
		}
		if !taken {
			return false
		}
	}
	return d.Err() == nil
}
