package mcpserver

// The MCP server reads newline-delimited JSON-RPC from stdin. The SDK's IO
// transport ends the whole connection on the first message it cannot
// decode (go-sdk issue #1209), and it turns numeric ids into int64 through
// float64, so 18446744073709551616 comes back as -9223372036854775808. The
// guard below sits between stdin and the SDK: it answers every malformed or
// oversize line itself with a JSON-RPC error and hands the SDK only
// messages the SDK's own decoder accepts, each request carrying a string id
// the guard chose; a writer on stdout puts the client's id back, byte for
// byte, into each response and into every other member of an outgoing
// message that names one of the client's requests (a subscription's id in
// _meta, a cancellation's requestId).
//
// The guard also owns the connection's lifecycle as MCP states it: the
// reply to a request the client cancelled is not sent (it is logged on
// stderr instead, so an edit that was committed anyway is still told), and
// at the end of stdin the SDK is not told the input ended until every
// request already read has been answered (see pump), because the SDK
// cancels every request in flight and stops writing the moment it sees
// the end of its input.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/git-edit/git-edit/ops"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLineBytes bounds one line on the server's stdin, its newline not
// counted: the largest arguments the engine takes (ops.MaxArgsBytes)
// plus 1 MiB for the JSON-RPC and MCP envelope around them. A longer line
// is read and dropped without being held, and answered with -32600.
const MaxLineBytes = ops.MaxArgsBytes + 1<<20

// TokenPrefix starts every id the guard hands the SDK. Every request id a
// client sends is replaced by a fresh token, so a client's own string id
// never reaches the SDK as an id and cannot be mistaken for a token.
const TokenPrefix = "git-edit-id:"

// guardedStdio is an mcp.Transport over in and out (the server's stdin and
// stdout) that survives malformed input: see frameGuard.
type guardedStdio struct {
	in    io.Reader
	out   io.Writer
	limit int       // longest line accepted, in bytes; see MaxLineBytes
	notes io.Writer // where a reply the guard does not send is told (stderr); nil: nowhere
}

// Connect starts the guard's reading goroutine and connects the SDK's IO
// transport to what it lets through. The goroutine ends when in ends or the
// SDK closes its side; it may stay blocked in a read of in until then.
func (t *guardedStdio) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	g := newFrameGuard(t.out)
	g.notes = t.notes
	g.toSDK = pw
	go g.pump(t.in, pw, t.limit)
	// The guard already bounds each line; the SDK's own cap would only add
	// a second, fatal limit.
	return (&mcp.IOTransport{Reader: pr, Writer: g.out, MaxLineLength: -1}).Connect(ctx)
}

// frameGuard checks each line from the client before the SDK sees it and
// keeps the client's request ids while their requests are in flight.
type frameGuard struct {
	out   *replyWriter
	notes io.Writer      // stderr: replies not sent are told here
	toSDK *io.PipeWriter // what the SDK reads; the guard answers the server's requests on it after stdin ends

	mu      sync.Mutex
	changed sync.Cond // signalled when pending shrinks or stdout fails
	seq     uint64
	pending map[string]*clientID // token → the client's id
	// asked holds the server's own requests to the client not yet
	// answered (idKey → id as the server wrote it); after stdin ended
	// none can be, and the guard answers each with an error itself.
	asked      map[string]json.RawMessage
	inputEnded bool // stdin ended: nothing more comes from the client
	outFailed  bool // a write to stdout failed: no reply can be delivered
}

// clientID is a request id as the client wrote it.
type clientID struct {
	raw    json.RawMessage // the exact bytes, echoed back in the response
	key    string          // what a cancellation's requestId must match
	method string          // the request's method, for messages
	// cancelled: the client cancelled the request, so its reply is not
	// sent (MCP: a receiver SHOULD NOT answer a cancelled request).
	cancelled bool
}

// longLived reports a request that is answered only when it ends, which
// the client decides (a subscriptions/listen stream): the end of input
// does not wait for its reply.
func (c *clientID) longLived() bool { return c.method == "subscriptions/listen" }

func newFrameGuard(out io.Writer) *frameGuard {
	g := &frameGuard{pending: map[string]*clientID{}, asked: map[string]json.RawMessage{}}
	g.changed.L = &g.mu
	g.out = &replyWriter{w: out, restore: g.restoreID, failed: g.stdoutFailed}
	return g
}

// Error codes of JSON-RPC 2.0 the guard answers with.
const (
	codeParseError     = jsonrpc.CodeParseError     // not JSON
	codeInvalidRequest = jsonrpc.CodeInvalidRequest // JSON, but not a JSON-RPC 2.0 message
)

// rejection is a line the guard answers itself instead of passing it on.
type rejection struct {
	id      json.RawMessage // the request's id, or null when it cannot be told
	code    int64
	message string
}

var nullID = json.RawMessage("null")

// pump reads lines from in until it ends, answers bad ones on stdout and
// writes the rest, one per line, to pw for the SDK. At the end of in it
// waits until every request it passed on has been answered (drain), then
// closes pw so the server sees end of input; a read error is passed on.
func (g *frameGuard) pump(in io.Reader, pw *io.PipeWriter, limit int) {
	lr := newLineReader(in, limit)
	for {
		line, oversize, err := lr.next()
		if err != nil {
			g.drain(pw)
			if errors.Is(err, io.EOF) {
				pw.Close()
			} else {
				pw.CloseWithError(fmt.Errorf("reading stdin: %w", err))
			}
			return
		}
		var forward [][]byte
		var rej *rejection
		if oversize {
			rej = &rejection{nullID, codeInvalidRequest, fmt.Sprintf(
				"the message is longer than %d bytes, git-edit's limit for one line; it was dropped unread: split the edit into smaller calls", limit)}
		} else {
			forward, rej = g.admit(line)
		}
		if rej != nil {
			if err := g.out.writeLine(rej.encode()); err != nil {
				pw.CloseWithError(fmt.Errorf("writing to stdout: %w", err))
				return
			}
		}
		for _, msg := range forward {
			if _, err := pw.Write(append(msg, '\n')); err != nil {
				return // the server has stopped reading
			}
		}
	}
}

// drain runs at the end of stdin. The SDK, once its input ends, cancels
// every request in flight and writes nothing more, so a request read just
// before the end (`printf … | git edit mcp`) would lose its reply, and an
// edit already committed would go untold. Instead the SDK's input stays
// open until every request the guard passed on has been answered. Nothing
// can answer the server's own requests to the client any more, so the
// guard answers those itself with an error (the call that asked then
// fails and is answered). A subscriptions/listen stream is not waited for:
// it ends when the SDK sees the end of input. The wait ends early if
// stdout fails, as then no reply can be delivered.
func (g *frameGuard) drain(pw *io.PipeWriter) {
	g.mu.Lock()
	g.inputEnded = true
	asked := g.asked
	g.asked = map[string]json.RawMessage{}
	g.mu.Unlock()
	for _, id := range asked {
		g.answerUnanswerable(pw, id)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.outFailed && g.awaitingReply() {
		g.changed.Wait()
	}
}

// awaitingReply reports a request passed on whose reply is still to come
// and is not a long-lived stream. Called with g.mu held.
func (g *frameGuard) awaitingReply() bool {
	for _, c := range g.pending {
		if !c.longLived() {
			return true
		}
	}
	return false
}

// answerUnanswerable answers, on the SDK's input, a request of the server's
// that the client can no longer answer because its input ended.
func (g *frameGuard) answerUnanswerable(pw *io.PipeWriter, id json.RawMessage) {
	line := (&rejection{id, jsonrpc.CodeInternalError,
		"the client closed its input before answering this request"}).encode()
	pw.Write(append(line, '\n')) // fails only once the SDK stopped reading, when no one waits for it
}

// stdoutFailed records that stdout cannot be written: drain stops waiting.
func (g *frameGuard) stdoutFailed() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.outFailed = true
	g.changed.Broadcast()
}

// admit decides what to do with one line: the messages to pass on to the
// SDK (none, one, or for a cancellation one per matching request), or the
// error to answer with. A request's id is replaced by a fresh token, kept
// until the SDK's response goes out through restoreID.
func (g *frameGuard) admit(line []byte) (forward [][]byte, rej *rejection) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, nil // blank lines separate nothing; the SDK skips them too
	}
	var probe json.RawMessage
	if err := json.Unmarshal(line, &probe); err != nil {
		return nil, &rejection{nullID, codeParseError, fmt.Sprintf(
			"parse error: the line is not one JSON value (%v); send each JSON-RPC message as one line of JSON", err)}
	}
	switch line[0] {
	case '{':
	case '[':
		return nil, &rejection{nullID, codeInvalidRequest,
			"invalid request: batches (JSON arrays) are not supported; send each message on its own line"}
	default:
		return nil, &rejection{nullID, codeInvalidRequest,
			"invalid request: a JSON-RPC message is a JSON object; send {\"jsonrpc\":\"2.0\",\"id\":…,\"method\":…}"}
	}
	ms, err := objectMembers(line)
	if err != nil {
		return nil, &rejection{nullID, codeInvalidRequest, "invalid request: " + err.Error()}
	}
	method, hasMethod := ms.get("method")
	id, hasID := ms.get("id")
	kind := jsonKind(id)
	_, hasResult := ms.get("result")
	_, hasError := ms.get("error")
	// The id is echoed unless the message is a response (result or error,
	// no method): a response's id names one of the server's requests, and
	// echoing it would answer a request of the client's that was never sent.
	replyID := nullID
	if (hasMethod || !hasResult && !hasError) && (kind == "string" || kind == "number") {
		replyID = id
	}
	invalid := func(format string, args ...any) (forward [][]byte, rej *rejection) {
		return nil, &rejection{replyID, codeInvalidRequest, "invalid request: " + fmt.Sprintf(format, args...)}
	}
	if v, ok := ms.get("jsonrpc"); !ok || !isJSONString(v, "2.0") {
		return invalid(`"jsonrpc" must be "2.0"; this server speaks JSON-RPC 2.0 only`)
	}
	if !hasMethod && kind == "null" && hasError && !hasResult {
		// The client's error reply to a line of ours it could not read:
		// valid JSON-RPC, with nothing to answer and nothing for the SDK.
		return nil, nil
	}
	if hasID && kind != "string" && kind != "number" {
		return invalid("the id is a JSON %s; use a string or a number (omit the id for a notification)", kind)
	}
	if hasMethod && jsonKind(method) != "string" {
		return invalid(`"method" is a JSON %s; send the method's name as a string, such as "tools/list"`, jsonKind(method))
	}
	if !hasMethod && hasResult == hasError {
		return invalid(`a request needs a "method"; a response needs either "result" or "error"`)
	}

	var token string
	switch {
	case hasMethod && hasID:
		var m string
		json.Unmarshal(method, &m) // checked to be a string above
		token = g.track(id, m)
		ms.set("id", mustMarshal(token))
		forward = [][]byte{ms.encode()}
	case !hasMethod && hasID:
		// The client's answer to one of the server's requests.
		g.mu.Lock()
		delete(g.asked, idKey(id))
		g.mu.Unlock()
		forward = [][]byte{line}
	case hasMethod && isJSONString(method, "notifications/cancelled"):
		// The cancellation names the client's id; the SDK knows the token.
		forward = g.cancellations(ms)
	default:
		forward = [][]byte{line}
	}
	// The SDK ends the connection on any message its decoder refuses, so
	// its decoder, not a copy of its rules, has the last word.
	for _, msg := range forward {
		if _, err := jsonrpc.DecodeMessage(msg); err != nil {
			if token != "" {
				g.untrack(token)
			}
			return invalid("%v; send a JSON-RPC 2.0 request, notification or response", err)
		}
	}
	return forward, nil
}

// track records the client's id of a request and returns the token that
// stands for it.
func (g *frameGuard) track(id json.RawMessage, method string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seq++
	token := TokenPrefix + strconv.FormatUint(g.seq, 10)
	g.pending[token] = &clientID{raw: bytes.Clone(id), key: idKey(id), method: method}
	return token
}

func (g *frameGuard) untrack(token string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.pending, token)
	g.changed.Broadcast()
}

// cancellations rewrites a notifications/cancelled for the SDK: one per
// request in flight whose client id matches requestId, naming its token.
// A cancellation that matches nothing is dropped, as MCP lets a receiver
// ignore cancellations of requests it does not know.
func (g *frameGuard) cancellations(ms members) [][]byte {
	params, ok := ms.get("params")
	if !ok || jsonKind(params) != "object" {
		return nil
	}
	pm, err := objectMembers(params)
	if err != nil {
		return nil
	}
	rid, ok := pm.get("requestId")
	if !ok {
		return nil
	}
	key := idKey(rid)
	g.mu.Lock()
	var tokens []string
	for token, c := range g.pending {
		if c.key == key {
			// From here on its reply is not sent, whenever the SDK
			// produces it.
			c.cancelled = true
			tokens = append(tokens, token)
		}
	}
	g.mu.Unlock()
	var out [][]byte
	for _, token := range tokens {
		pm.set("requestId", mustMarshal(token))
		ms.set("params", pm.encode())
		out = append(out, ms.encode())
	}
	return out
}

// restoreID maps a line of the SDK's back to the client's ids before it
// goes out; nil means the line is not sent. Every place an outgoing message
// names one of the client's requests carries the client's id, never a
// token: a response's id (the token is then forgotten, and the reply to a
// cancelled request is dropped and told on stderr instead), and, in a
// notification or result, the protocol's references to a request, which
// the SDK writes from the id it was given: params.requestId and any _meta
// value (the subscriptionId of notifications/subscriptions/acknowledged
// and of list-changed notifications on a subscriptions/listen stream).
// Tool output (content, structuredContent) is never rewritten. A request
// of the server's own is remembered until the client answers it.
func (g *frameGuard) restoreID(line []byte) []byte {
	ms, err := objectMembers(line)
	if err != nil {
		return line
	}
	id, hasID := ms.get("id")
	_, isRequest := ms.get("method")
	if isRequest && hasID {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.inputEnded {
			// The client can never answer it: answer it now, and don't send it.
			if g.toSDK != nil {
				go g.answerUnanswerable(g.toSDK, bytes.Clone(id))
			}
			return nil
		}
		g.asked[idKey(id)] = bytes.Clone(id)
		return line
	}
	if !bytes.Contains(line, []byte(TokenPrefix)) {
		return line
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var token string
	idIsToken := !isRequest && hasID && jsonKind(id) == "string" && json.Unmarshal(id, &token) == nil && strings.HasPrefix(token, TokenPrefix)
	// Beyond the id, only a line that names a token again can refer to a
	// request (most lines are tool results, walked no further). A
	// response's own _meta may name its request (a listen's result), so
	// the references are mapped while the token is still known.
	if idIsToken && bytes.Count(line, []byte(TokenPrefix)) > 1 || !idIsToken {
		for _, key := range []string{"params", "result"} {
			if v, ok := ms.get(key); ok && jsonKind(v) == "object" {
				ms.set(key, g.restoreRefs(v, key == "params"))
			}
		}
	}
	if !idIsToken {
		return ms.encode()
	}
	c, ok := g.pending[token]
	if !ok {
		return ms.encode()
	}
	delete(g.pending, token)
	g.changed.Broadcast()
	ms.set("id", c.raw)
	if c.cancelled {
		if !c.longLived() {
			// A listen's end is no news; a call's result may be.
			g.tellDropped(c, ms)
		}
		return nil
	}
	return ms.encode()
}

// restoreRefs maps tokens back in one params or result object: its
// requestId (params only) and the values of its _meta. Called with g.mu
// held; the tokens stay known, as the request may still be in flight.
func (g *frameGuard) restoreRefs(obj json.RawMessage, isParams bool) json.RawMessage {
	om, err := objectMembers(obj)
	if err != nil {
		return obj
	}
	if v, ok := om.get("requestId"); ok && isParams {
		om.set("requestId", g.clientRaw(v))
	}
	if meta, ok := om.get("_meta"); ok && jsonKind(meta) == "object" {
		mm, err := objectMembers(meta)
		if err == nil {
			for _, m := range mm {
				mm.set(m.key, g.clientRaw(m.val))
			}
			om.set("_meta", mm.encode())
		}
	}
	return om.encode()
}

// clientRaw is the client's id for v when v is a token of a request in
// flight, else v. Called with g.mu held.
func (g *frameGuard) clientRaw(v json.RawMessage) json.RawMessage {
	var token string
	if jsonKind(v) != "string" || json.Unmarshal(v, &token) != nil {
		return v
	}
	if c, ok := g.pending[token]; ok {
		return c.raw
	}
	return v
}

// tellDropped tells on stderr the reply not sent to a cancelled request,
// with what the call did: a tool call's first line of text and, when it
// recorded an edit, the commit, since the agent will never see it.
func (g *frameGuard) tellDropped(c *clientID, ms members) {
	if g.notes == nil {
		return
	}
	what := "its reply was an error"
	if res, ok := ms.get("result"); ok {
		var r struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			StructuredContent struct {
				Commit string `json:"commit"`
			} `json:"structuredContent"`
			IsError bool `json:"isError"`
		}
		json.Unmarshal(res, &r) // best effort: any result is told somehow
		switch {
		case len(r.Content) > 0 && r.IsError:
			what = "it was refused: " + firstLine(r.Content[0].Text)
		case len(r.Content) > 0:
			what = "it completed: " + firstLine(r.Content[0].Text)
		default:
			what = "it completed"
		}
		if r.StructuredContent.Commit != "" {
			what += fmt.Sprintf(" (recorded as commit %s; git edit log and git edit undo see it)", r.StructuredContent.Commit)
		}
	}
	fmt.Fprintf(g.notes, "git-edit mcp: the client cancelled request %s (%s), so its reply is not sent; %s\n", c.raw, c.method, what)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// idKey is what makes two ids the same request: a string by its value
// ("x" and "\u0078" match), a number by its exact text (1e3 is not 1000).
func idKey(id json.RawMessage) string {
	if jsonKind(id) == "string" {
		var s string
		if json.Unmarshal(id, &s) == nil {
			return "s" + s
		}
	}
	return "n" + string(id)
}

// replyWriter is the server's stdout. The SDK's responses and the guard's
// error replies both go through it, a whole line per write under one lock,
// so lines never interleave.
type replyWriter struct {
	w       io.Writer
	restore func([]byte) []byte // maps tokens back to the client's ids; nil: don't send the line
	failed  func()              // told when a write to w fails

	mu      sync.Mutex
	partial []byte // the SDK's output after its last newline
}

// Write takes the SDK's output and writes each complete line, its id
// restored. The SDK writes one message per call; a line split across calls
// is joined first.
func (w *replyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			w.partial = append(w.partial, p...)
			break
		}
		line := p[:i]
		if len(w.partial) > 0 {
			line = append(w.partial, line...)
			w.partial = nil
		}
		if out := w.restore(line); out != nil {
			if err := w.writeLocked(out); err != nil {
				return n - len(p), err
			}
		}
		p = p[i+1:]
	}
	return n, nil
}

// writeLine writes one line of the guard's own.
func (w *replyWriter) writeLine(line []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeLocked(line)
}

func (w *replyWriter) writeLocked(line []byte) error {
	buf := make([]byte, 0, len(line)+1)
	_, err := w.w.Write(append(append(buf, line...), '\n'))
	if err != nil && w.failed != nil {
		w.failed()
	}
	return err
}

// Close leaves stdout open: the process owns it, as with mcp.StdioTransport.
func (w *replyWriter) Close() error { return nil }

// encode writes the error reply with the request's id exactly as the
// client wrote it (json.Marshal would escape <, >, & and U+2028 in a
// string id).
func (r *rejection) encode() []byte {
	id := r.id
	if len(id) == 0 || !json.Valid(id) {
		id = nullID
	}
	var e bytes.Buffer
	enc := json.NewEncoder(&e)
	enc.SetEscapeHTML(false)
	enc.Encode(struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}{r.code, r.message}) // a struct of an int and a string cannot fail
	line := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	line = append(line, `,"error":`...)
	line = append(line, bytes.TrimRight(e.Bytes(), "\n")...)
	return append(line, '}')
}

// members are the members of a JSON object, in order, values as written.
type members []member

type member struct {
	key string
	val json.RawMessage
}

// errDuplicateKey means an object names a member twice, which JSON leaves
// to each parser to resolve; the guard and the SDK could pick different ones.
var errDuplicateKey = errors.New("duplicate member")

// objectMembers splits a JSON object (already checked to be valid JSON)
// into its members. Keys are compared exactly, as the SDK does.
func objectMembers(obj []byte) (members, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var ms members
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, fmt.Errorf("%w %q; name each member once", errDuplicateKey, key)
		}
		seen[key] = true
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		ms = append(ms, member{key, val})
	}
	return ms, nil
}

func (ms members) get(key string) (json.RawMessage, bool) {
	for _, m := range ms {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// set replaces the value of key, which must be a member.
func (ms members) set(key string, val json.RawMessage) {
	for i := range ms {
		if ms[i].key == key {
			ms[i].val = val
		}
	}
}

func (ms members) encode() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(mustMarshal(m.key))
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func mustMarshal(s string) json.RawMessage {
	b, _ := json.Marshal(s) // a Go string always marshals
	return b
}

// jsonKind names the type of a valid JSON value by its first byte.
func jsonKind(v json.RawMessage) string {
	if len(v) == 0 {
		return "missing"
	}
	switch v[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// isJSONString reports whether v is a JSON string with value want.
func isJSONString(v json.RawMessage, want string) bool {
	var s string
	return jsonKind(v) == "string" && json.Unmarshal(v, &s) == nil && s == want
}

// lineReader splits a stream into lines and never holds more than limit
// bytes of one line: a longer line is read to its end and dropped.
type lineReader struct {
	br    *bufio.Reader
	limit int
	buf   []byte
	held  int // the largest capacity buf has had; tests check it against limit
}

func newLineReader(r io.Reader, limit int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), limit: limit}
}

// next returns the next line without its newline, valid until the next
// call. oversize reports a line longer than limit, which was consumed and
// not kept. A last line without a newline is still a line; err is io.EOF
// once the input is done, or the read error.
func (r *lineReader) next() (line []byte, oversize bool, err error) {
	if cap(r.buf) > 1<<20 {
		r.buf = nil // don't keep one big line's memory for the rest of the session
	}
	r.buf = r.buf[:0]
	sawData := false
	for {
		chunk, err := r.br.ReadSlice('\n')
		sawData = sawData || len(chunk) > 0
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		if !oversize {
			if len(r.buf)+len(chunk) > r.limit {
				oversize = true
			} else {
				r.grow(len(chunk))
				r.buf = append(r.buf, chunk...)
			}
		}
		switch {
		case err == nil:
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && sawData:
		default:
			return nil, false, err
		}
		if oversize {
			return nil, true, nil
		}
		return r.buf, false, nil
	}
}

// grow makes room for n more bytes without letting capacity pass limit,
// which append's own growth could.
func (r *lineReader) grow(n int) {
	need := len(r.buf) + n
	if need <= cap(r.buf) {
		return
	}
	c := min(max(2*cap(r.buf), need, 4096), r.limit)
	nb := make([]byte, len(r.buf), c)
	copy(nb, r.buf)
	r.buf = nb
	r.held = max(r.held, c)
}
