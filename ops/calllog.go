package ops

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Observer logs tool calls as seed 001 describes, for the MCP server and
// `call` alike: an INFO line through log/slog when a call starts and when it
// completes, and, with an agent log, each call and its result as
// timestamped TOOL_CALL / TOOL_RESULT records:
//
//	=== 2024-01-15T10:30:46.010Z TOOL_CALL [edit] id=toolu_123 ===
//	{"path": "src/main.go", "operations": [...]}
//
//	=== 2024-01-15T10:30:46.015Z TOOL_RESULT [toolu_123] success ===
//	{"path": "/full/path/src/main.go", "linesChanged": 5, "newLineCount": 120}
//
// The zero Observer logs nothing. It is safe for concurrent calls: each
// record is written whole, in one write, so records from concurrent calls
// (or processes appending to the same file) never interleave.
type Observer struct {
	Log   *slog.Logger
	Agent io.Writer
	mu    sync.Mutex
}

// Call runs a tool call (run), logging it as tool with its arguments and
// id.
func (o *Observer) Call(tool, id string, args []byte, run func() (Result, error)) (Result, error) {
	start := time.Now()
	if o.Log != nil {
		o.Log.Info("[tool] Execution started", "tool", tool, "id", id)
	}
	o.record(start, fmt.Sprintf("TOOL_CALL [%s] id=%s", tool, id), args)
	res, err := run()
	end := time.Now()
	ok := err == nil && res.OK
	if o.Log != nil {
		o.Log.Info("[tool] Execution completed", "tool", tool, "id", id, "duration_ms", end.Sub(start).Milliseconds(), "success", ok)
	}
	outcome := "success"
	if !ok {
		outcome = "error"
	}
	var body []byte
	if err != nil {
		body, _ = json.Marshal(map[string]string{"error": err.Error()})
	} else {
		body, _ = json.Marshal(res.Value)
	}
	o.record(end, fmt.Sprintf("TOOL_RESULT [%s] %s", id, outcome), body)
	return res, err
}

func (o *Observer) record(t time.Time, what string, body []byte) {
	if o.Agent == nil {
		return
	}
	rec := fmt.Sprintf("=== %s %s ===\n%s\n\n", t.UTC().Format("2006-01-02T15:04:05.000Z"), what, body)
	o.mu.Lock()
	defer o.mu.Unlock()
	io.WriteString(o.Agent, rec)
}
