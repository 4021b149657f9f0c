package scanner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/share/secrets"
)

// Serve answers a request with Scan's findings and what it scanned, on one
// line, in its protocol version; empty input is no request and gets no
// answer; input that is not one request is refused with nothing written.
func TestServe(t *testing.T) {
	token := "gh" + "p_" + strings.Repeat("aB3dE6gH9jK", 4)[:36]
	blobs := []secrets.Blob{
		{Session: "s", Commit: "c1", Path: "notes.txt", Content: []byte("ok\ntoken " + token + "\n"), Added: []secrets.LineRange{{First: 2, Last: 2}}},
		{Session: "s", Commit: "c1", Path: "empty.txt", Content: []byte{}},
	}
	messages := []secrets.Message{{Session: "s", Commit: "c1", Text: "nothing here"}}
	req, _ := json.Marshal(secrets.Request{Version: secrets.ProtocolVersion, Blobs: blobs, Messages: messages})
	var out bytes.Buffer
	if err := Serve(context.Background(), bytes.NewReader(req), &out); err != nil {
		t.Fatal(err)
	}
	var resp secrets.Response
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("response %q: %v", out.String(), err)
	}
	if resp.Error != "" || len(resp.Findings) != 1 || resp.Findings[0].Line != 2 || resp.Findings[0].Fingerprint != "c1:notes.txt:"+resp.Findings[0].Rule+":2" {
		t.Fatalf("response %+v; want the token at notes.txt:2", resp)
	}
	want := secrets.Scanned{Blobs: 2, BlobBytes: int64(len(blobs[0].Content)), Messages: 1, MessageBytes: int64(len(messages[0].Text))}
	if resp.Version != secrets.ProtocolVersion || resp.Scanned != want || resp.Scanned != secrets.Count(blobs, messages) {
		t.Fatalf("response version %d, scanned %+v; want version %d, scanned %+v", resp.Version, resp.Scanned, secrets.ProtocolVersion, want)
	}

	out.Reset()
	if err := Serve(context.Background(), strings.NewReader(""), &out); err != nil || out.Len() != 0 {
		t.Fatalf("empty input: %v, wrote %q; want nothing", err, out.String())
	}
	v := fmt.Sprintf(`"Version":%d`, secrets.ProtocolVersion)
	for _, bad := range []string{
		"{", "[]", `{` + v + `,"Blobs":[]} {}`, `{` + v + `,"Blobs":[{"Content":"not base64!"}]}`,
		// A field this version does not know, in a request of this version.
		`{` + v + `,"Blobs":[],"Future":true}`,
		`{` + v + `,"Blobs":[{"Path":"a","Content":"eA==","Encoding":"gzip"}]}`,
	} {
		out.Reset()
		if err := Serve(context.Background(), strings.NewReader(bad), &out); err == nil || out.Len() != 0 {
			t.Errorf("input %q: %v, wrote %q; want refused, nothing written", bad, err, out.String())
		}
	}
}

// A request of another version, or of none (an older git-edit), is
// answered in Serve's own version with an error saying the programs differ
// and how to fix it, and nothing scanned, even when it holds a secret and
// fields this version does not know: what such a request means cannot be
// known, so scanning it as if it were of this version could miss what it
// carries.
func TestServeAnotherVersion(t *testing.T) {
	key := "AK" + "IA" + "Z3MSJV4WWNKWW5FG"
	content := `{"Session":"s","Commit":"c","Path":"k.py","Content":"` + b64("k = \""+key+"\"\n") + `"}`
	for _, req := range []string{
		`{"Blobs":[` + content + `],"Messages":null}`,
		`{"Version":0,"Blobs":[` + content + `]}`,
		`{"Version":99,"Blobs":[` + content + `],"Future":{"x":1}}`,
	} {
		var out bytes.Buffer
		if err := Serve(context.Background(), strings.NewReader(req), &out); err != nil {
			t.Fatalf("request %s: %v; want an answer", req, err)
		}
		var resp secrets.Response
		if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
			t.Fatalf("response %q: %v", out.String(), err)
		}
		if resp.Version != secrets.ProtocolVersion || len(resp.Findings) != 0 || resp.Scanned != (secrets.Scanned{}) {
			t.Errorf("request %s: response %+v; want version %d, nothing scanned", req, resp, secrets.ProtocolVersion)
		}
		for _, part := range []string{"protocol version", "scanned nothing", "same checkout", "go install ./cmd/..."} {
			if !strings.Contains(resp.Error, part) {
				t.Errorf("request %s: the error does not say %q: %q", req, part, resp.Error)
			}
		}
	}
}

func b64(s string) string {
	data, _ := json.Marshal([]byte(s))
	return strings.Trim(string(data), `"`)
}
