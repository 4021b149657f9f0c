//go:build unix

package main

// The fake model for OpenAI's Responses API as Codex CLI speaks it: POST
// /v1/responses with "stream": true, answered with server-sent events
// (response.created, response.output_item.added and .done, then
// response.completed with usage). Requests of the main agent loop (those
// that offer Codex's exec_command tool) are answered from the script by
// step; any other request (a title, a summary) gets a short text.
//
// A step's Tool picks the output item:
//   - "tool_search": a tool_search_call (Codex defers MCP tools behind its
//     client-side tool search), Input its arguments;
//   - "NAMESPACE TOOL" (a space between): a function_call of a tool that a
//     tool_search_output exposed inside a namespace, as the real model
//     calls it (name and namespace fields);
//   - any other name with Input a JSON string: a custom_tool_call (Codex's
//     freeform apply_patch), the string its input;
//   - any other name: a function_call, Input its arguments.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

var _ = e2eRegisterModel("responses", newResponsesFake)

// responsesItem is an input item of a Responses request; only the fields
// the fake reads.
type responsesItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role,omitempty"`
	CallID  string          `json:"call_id,omitempty"`
	Name    string          `json:"name,omitempty"`
	Output  json.RawMessage `json:"output,omitempty"`
	Tools   json.RawMessage `json:"tools,omitempty"`
	Content json.RawMessage `json:"content,omitempty"`
}

type responsesRequest struct {
	Model  string          `json:"model"`
	Stream bool            `json:"stream"`
	Input  []responsesItem `json:"input"`
	Tools  []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
}

// responsesCallID is the call_id of the tool call the fake sends at step.
func responsesCallID(step int) string { return fmt.Sprintf("call_e2e_%02d", step) }

func newResponsesFake(script []e2eStep, rec *e2eRecorder) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/responses", func(w http.ResponseWriter, r *http.Request) {
		body, err := e2eReadAll(r.Body)
		ex := e2eExchange{Method: r.Method, Path: r.URL.RequestURI(), Body: string(body), Status: 200}
		var req responsesRequest
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
			ex.Main = ex.Main || tool.Name == "exec_command"
		}
		step := e2eStep{Text: "ok"}
		if ex.Main {
			for _, it := range req.Input {
				switch it.Type {
				case "function_call", "custom_tool_call", "tool_search_call":
					ex.Step++
				case "message":
					if it.Role == "assistant" {
						ex.Step++
					}
				}
			}
			ex.ToolResults, ex.Problem = responsesToolResults(req, ex.Step)
			if ex.Step < len(script) {
				step = script[ex.Step]
			} else {
				ex.Problem = strings.TrimPrefix(ex.Problem+"; ", "; ") + fmt.Sprintf("step %d is past the script's %d steps", ex.Step, len(script))
				step = e2eStep{Text: "script exhausted"}
			}
		}
		if !req.Stream {
			ex.Problem = strings.TrimPrefix(ex.Problem+"; ", "; ") + "request is not streamed"
		}
		rec.Add(ex)
		item := responsesOutputItem(step, ex.Step)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		id := fmt.Sprintf("resp_e2e_%02d", ex.Step)
		send := func(ev map[string]any) {
			raw, _ := json.Marshal(ev)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev["type"], raw)
		}
		send(map[string]any{"type": "response.created", "response": map[string]any{"id": id, "status": "in_progress"}})
		send(map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
		send(map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
		send(map[string]any{"type": "response.completed", "response": map[string]any{
			"id": id, "status": "completed",
			"usage": map[string]any{"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0},
				"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 110},
		}})
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		body, _ := e2eReadAll(r.Body)
		rec.Add(e2eExchange{Method: r.Method, Path: r.URL.RequestURI(), Status: 404, Body: string(body)})
		http.NotFound(w, r)
	})
	return mux
}

// responsesOutputItem is the one output item the fake sends for step.
func responsesOutputItem(step e2eStep, n int) map[string]any {
	id := responsesCallID(n)
	switch {
	case step.Tool == "":
		return map[string]any{"type": "message", "id": fmt.Sprintf("msg_e2e_%02d", n), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": step.Text, "annotations": []any{}}}}
	case step.Tool == "tool_search":
		var args any = map[string]any{}
		if len(step.Input) > 0 {
			args = step.Input
		}
		return map[string]any{"type": "tool_search_call", "id": "ts_" + id, "call_id": id, "execution": "client", "status": "completed", "arguments": args}
	case strings.Contains(step.Tool, " "):
		ns, name, _ := strings.Cut(step.Tool, " ")
		return map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": id, "namespace": ns, "name": name, "arguments": string(step.Input), "status": "completed"}
	case strings.HasPrefix(string(step.Input), `"`):
		var input string
		json.Unmarshal(step.Input, &input)
		return map[string]any{"type": "custom_tool_call", "id": "ctc_" + id, "call_id": id, "name": step.Tool, "input": input, "status": "completed"}
	default:
		return map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": id, "name": step.Tool, "arguments": string(step.Input), "status": "completed"}
	}
}

// responsesToolResults returns the results the request carries for the
// fake's previous call (step-1), and a problem if there is none.
func responsesToolResults(req responsesRequest, step int) ([]e2eToolResult, string) {
	if step == 0 {
		return nil, ""
	}
	want := responsesCallID(step - 1)
	var out []e2eToolResult
	for _, it := range req.Input {
		if it.CallID != want {
			continue
		}
		switch it.Type {
		case "function_call_output", "custom_tool_call_output":
			out = append(out, e2eToolResult{ID: it.CallID, Name: it.Type, Text: responsesText(it.Output)})
		case "tool_search_output":
			out = append(out, e2eToolResult{ID: it.CallID, Name: it.Type, Text: string(it.Tools)})
		}
	}
	if len(out) == 0 && step > 0 {
		return nil, fmt.Sprintf("no output for %s in the request", want)
	}
	return out, ""
}

// responsesText is a tool output's text: a string, or the texts of a list
// of content items.
func responsesText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}
