package scanner

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/share/secrets"
)

// Serve answers a request with Scan's findings, on one line; empty input is
// no request and gets no answer; input that is not one request is refused
// with nothing written.
func TestServe(t *testing.T) {
	token := "gh" + "p_" + strings.Repeat("aB3dE6gH9jK", 4)[:36]
	req, _ := json.Marshal(secrets.Request{
		Blobs:    []secrets.Blob{{Session: "s", Commit: "c1", Path: "notes.txt", Content: []byte("ok\ntoken " + token + "\n"), Added: []secrets.LineRange{{First: 2, Last: 2}}}},
		Messages: []secrets.Message{{Session: "s", Commit: "c1", Text: "nothing here"}},
	})
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

	out.Reset()
	if err := Serve(context.Background(), strings.NewReader(""), &out); err != nil || out.Len() != 0 {
		t.Fatalf("empty input: %v, wrote %q; want nothing", err, out.String())
	}
	for _, bad := range []string{"{", "[]", `{"Blobs":[]} {}`, `{"Blobs":[{"Content":"not base64!"}]}`} {
		out.Reset()
		if err := Serve(context.Background(), strings.NewReader(bad), &out); err == nil || out.Len() != 0 {
			t.Errorf("input %q: %v, wrote %q; want refused, nothing written", bad, err, out.String())
		}
	}
}
