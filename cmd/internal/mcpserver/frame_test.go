package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"
)

// A cancellation reaches the SDK naming the token of the client's request;
// one naming a token itself, or nothing in flight, is dropped, so a client
// can never cancel a request by guessing its token.
func TestAttackMCPCancelNamesOnlyTheClientsOwnRequest(t *testing.T) {
	var out bytes.Buffer
	g := newFrameGuard(&out)
	fwd, rej := g.admit([]byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{}}`))
	if rej != nil || len(fwd) != 1 {
		t.Fatalf("request: %v %q", rej, fwd)
	}
	var req struct{ ID string }
	if err := json.Unmarshal(fwd[0], &req); err != nil || !strings.HasPrefix(req.ID, TokenPrefix) {
		t.Fatalf("the SDK sees id %q (%v)", req.ID, err)
	}
	cases := []struct {
		name, line string
		forwarded  bool
	}{
		{"the client's id", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"r"}}`, true},
		{"the token", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"` + req.ID + `"}}`, false},
		{"5 written otherwise", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5.0}}`, false},
		{"no request", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}`, false},
		{"no params", `{"jsonrpc":"2.0","method":"notifications/cancelled"}`, false},
	}
	for _, tc := range cases {
		fwd, rej := g.admit([]byte(tc.line))
		if rej != nil {
			t.Fatalf("%s: rejected: %s", tc.name, rej.message)
		}
		if !tc.forwarded {
			if len(fwd) != 0 {
				t.Fatalf("%s: passed on %q", tc.name, fwd)
			}
			continue
		}
		var n struct {
			Params struct {
				RequestID any    `json:"requestId"`
				Reason    string `json:"reason"`
			} `json:"params"`
		}
		if len(fwd) != 1 || json.Unmarshal(fwd[0], &n) != nil || n.Params.RequestID != req.ID || n.Params.Reason != "r" {
			t.Fatalf("%s: passed on %q", tc.name, fwd)
		}
	}
	// The request was cancelled, so its response is not sent (issue 23:
	// MCP's receivers do not answer a cancelled request), and the token is
	// forgotten.
	if _, err := g.out.Write([]byte(`{"jsonrpc":"2.0","id":"` + req.ID + `","result":{}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if out.String() != "" {
		t.Fatalf("stdout: %q", out.String())
	}
	if fwd, _ := g.admit([]byte(cases[0].line)); len(fwd) != 0 || len(g.pending) != 0 {
		t.Fatalf("a finished request can still be cancelled: %q, %d pending", fwd, len(g.pending))
	}
}

// A line longer than the limit is read to its end without being held: the
// reader's buffer never passes the limit and the process allocates a small
// fraction of the line, then the next line reads normally.
func TestAttackMCPOversizeLineIsNeverHeld(t *testing.T) {
	const limit = 1 << 20
	const size = 100 << 20
	in := io.MultiReader(&hugeLine{n: size}, strings.NewReader("\n"+`{"jsonrpc":"2.0","method":"x"}`+"\n"+"last line, no newline"))
	lr := newLineReader(in, limit)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	line, oversize, err := lr.next()
	runtime.ReadMemStats(&after)
	if err != nil || !oversize || line != nil {
		t.Fatalf("the 100 MB line: %q %v %v", line, oversize, err)
	}
	if lr.held > limit {
		t.Fatalf("the reader held %d bytes, over its limit of %d", lr.held, limit)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Fatalf("reading a %d-byte line allocated %d bytes", size, alloc)
	}
	for _, want := range []string{`{"jsonrpc":"2.0","method":"x"}`, "last line, no newline"} {
		if line, oversize, err := lr.next(); err != nil || oversize || string(line) != want {
			t.Fatalf("next line: %q %v %v, want %q", line, oversize, err, want)
		}
	}
	if _, _, err := lr.next(); err != io.EOF {
		t.Fatalf("after the last line: %v", err)
	}

	// A line of exactly the limit is kept; one byte more is not.
	for _, tc := range []struct {
		n        int
		oversize bool
	}{{limit, false}, {limit + 1, true}} {
		lr := newLineReader(io.MultiReader(&hugeLine{n: tc.n}, strings.NewReader("\n")), limit)
		line, oversize, err := lr.next()
		if err != nil || oversize != tc.oversize || !oversize && len(line) != tc.n || lr.held > limit {
			t.Fatalf("%d bytes: len %d oversize %v err %v held %d", tc.n, len(line), oversize, err, lr.held)
		}
	}
}

// hugeLine streams n bytes of one JSON string with no newline, never
// holding them.
type hugeLine struct{ n, off int }

func (h *hugeLine) Read(p []byte) (int, error) {
	if h.off >= h.n {
		return 0, io.EOF
	}
	k := min(len(p), h.n-h.off)
	for i := range k {
		switch h.off + i {
		case 0:
			p[i] = '"'
		default:
			p[i] = 'a'
		}
	}
	h.off += k
	return k, nil
}
