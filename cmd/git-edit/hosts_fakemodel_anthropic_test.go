//go:build unix

package main

// The fake model for Anthropic's Messages API (Claude Code): POST
// /v1/messages, streamed as server-sent events or answered whole, and
// /v1/messages/count_tokens. Requests of the main agent loop (those that
// offer the Bash tool) are answered from the script by step; every other
// message request (a title, a quota probe) gets a short text.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

var _ = e2eRegisterModel("anthropic", newAnthropicFake)

type anthropicRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
}

// anthropicToolID is the id of the tool_use the fake model sends at step.
func anthropicToolID(step int) string { return fmt.Sprintf("toolu_e2e_%02d", step) }

func newAnthropicFake(script []e2eStep, rec *e2eRecorder) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/messages/count_tokens", func(w http.ResponseWriter, r *http.Request) {
		body, _ := e2eReadAll(r.Body)
		rec.Add(e2eExchange{Method: r.Method, Path: r.URL.RequestURI(), Status: 200, Body: string(body)})
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"input_tokens":100}`)
	})
	mux.HandleFunc("POST /v1/messages", func(w http.ResponseWriter, r *http.Request) {
		body, err := e2eReadAll(r.Body)
		ex := e2eExchange{Method: r.Method, Path: r.URL.RequestURI(), Body: string(body), Status: 200}
		var req anthropicRequest
		if err == nil {
			err = json.Unmarshal(body, &req)
		}
		if err != nil {
			ex.Status, ex.Problem = 400, fmt.Sprintf("unreadable request: %v", err)
			rec.Add(ex)
			http.Error(w, ex.Problem, 400)
			return
		}
		for _, tool := range req.Tools {
			ex.Main = ex.Main || tool.Name == "Bash"
		}
		step := e2eStep{Text: "ok"}
		if ex.Main {
			for _, m := range req.Messages {
				if m.Role == "assistant" {
					ex.Step++
				}
			}
			ex.ToolResults, ex.Problem = anthropicToolResults(req, ex.Step)
			if ex.Step < len(script) {
				step = script[ex.Step]
			} else {
				ex.Problem = strings.TrimPrefix(ex.Problem+"; ", "; ") + fmt.Sprintf("step %d is past the script's %d steps", ex.Step, len(script))
				step = e2eStep{Text: "script exhausted"}
			}
		}
		rec.Add(ex)
		anthropicReply(w, req, step, ex.Step)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		body, _ := e2eReadAll(r.Body)
		rec.Add(e2eExchange{Method: r.Method, Path: r.URL.RequestURI(), Status: 404, Body: string(body)})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		fmt.Fprint(w, `{"type":"error","error":{"type":"not_found_error","message":"not served by the fake model"}}`)
	})
	return mux
}

// anthropicToolResults returns the tool results of the request's newest
// message, and a problem if step follows a tool call whose result is not
// there.
func anthropicToolResults(req anthropicRequest, step int) ([]e2eToolResult, string) {
	if len(req.Messages) == 0 {
		return nil, "no messages"
	}
	last := req.Messages[len(req.Messages)-1]
	var blocks []anthropicBlock
	if last.Role != "user" || json.Unmarshal(last.Content, &blocks) != nil {
		blocks = nil // a plain string: the prompt
	}
	var out []e2eToolResult
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		res := e2eToolResult{ID: b.ToolUseID, IsError: b.IsError}
		var s string
		var parts []anthropicBlock
		switch {
		case json.Unmarshal(b.Content, &s) == nil:
			res.Text = s
		case json.Unmarshal(b.Content, &parts) == nil:
			for _, p := range parts {
				res.Text += p.Text
			}
		}
		out = append(out, res)
	}
	if step > 0 {
		want := anthropicToolID(step - 1)
		for _, r := range out {
			if r.ID == want {
				return out, ""
			}
		}
		return out, fmt.Sprintf("no tool_result for %s in the newest message", want)
	}
	return out, ""
}

// anthropicReply answers with the step: a tool_use (stop_reason tool_use)
// or a text (end_turn), streamed when the request asked for a stream.
func anthropicReply(w http.ResponseWriter, req anthropicRequest, step e2eStep, n int) {
	var block anthropicBlock
	stop := "end_turn"
	if step.Tool != "" {
		block = anthropicBlock{Type: "tool_use", ID: anthropicToolID(n), Name: step.Tool, Input: step.Input}
		stop = "tool_use"
	} else {
		block = anthropicBlock{Type: "text", Text: step.Text}
	}
	msgID := fmt.Sprintf("msg_e2e_%02d", n)
	usage := map[string]int{"input_tokens": 100, "output_tokens": 10}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "model": req.Model,
			"content": []anthropicBlock{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	event := func(name string, data any) {
		raw, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, raw)
		if flusher != nil {
			flusher.Flush()
		}
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 100, "output_tokens": 1},
	}})
	if block.Type == "tool_use" {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": block.ID, "name": block.Name, "input": map[string]any{}}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(block.Input)}})
	} else {
		event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": block.Text}})
	}
	event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 10}})
	event("message_stop", map[string]any{"type": "message_stop"})
}
