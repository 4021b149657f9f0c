//go:build unix

package main

// The fake model for Google's Gemini API as Gemini CLI speaks it: POST
// /v1beta/models/MODEL:streamGenerateContent?alt=sse (server-sent events,
// one GenerateContentResponse per event), :generateContent (whole) and
// :countTokens. Requests of the main agent loop (those that declare Gemini
// CLI's run_shell_command tool) are answered from the script by step: a
// step with Tool is a functionCall part, one without a text part. Every
// other request (a next-speaker check, a routing or loop check) gets a
// short JSON text saying the user speaks next.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

var _ = e2eRegisterModel("gemini", newGeminiFake)

type geminiPart struct {
	Text         string `json:"text,omitempty"`
	FunctionCall *struct {
		ID   string          `json:"id,omitempty"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args,omitempty"`
	} `json:"functionCall,omitempty"`
	FunctionResponse *struct {
		ID       string          `json:"id,omitempty"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response,omitempty"`
	} `json:"functionResponse,omitempty"`
}

type geminiRequest struct {
	Contents []struct {
		Role  string       `json:"role"`
		Parts []geminiPart `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

func newGeminiFake(script []e2eStep, rec *e2eRecorder) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := e2eReadAll(r.Body)
		ex := e2eExchange{Method: r.Method, Path: r.URL.RequestURI(), Body: string(body), Status: 200}
		_, method, _ := strings.Cut(r.URL.Path, ":")
		if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1beta/models/") {
			ex.Status = 404
			rec.Add(ex)
			http.NotFound(w, r)
			return
		}
		var req geminiRequest
		if err == nil {
			err = json.Unmarshal(body, &req)
		}
		if err != nil {
			ex.Status, ex.Problem = 400, fmt.Sprintf("unreadable request: %v", err)
			rec.Add(ex)
			http.Error(w, ex.Problem, 400)
			return
		}
		if method == "countTokens" {
			rec.Add(ex)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"totalTokens":100}`)
			return
		}
		for _, t := range req.Tools {
			for _, d := range t.FunctionDeclarations {
				ex.Main = ex.Main || d.Name == "run_shell_command"
			}
		}
		step := e2eStep{Text: `{"next_speaker":"user","reasoning":"the turn is done"}`}
		if ex.Main {
			// The system instruction is most of the body (tens of KiB) and
			// would push the declared tools past the record's cut.
			var whole map[string]json.RawMessage
			if json.Unmarshal(body, &whole) == nil {
				delete(whole, "systemInstruction")
				if short, err := json.Marshal(whole); err == nil {
					ex.Body = string(short)
				}
			}
			for _, c := range req.Contents {
				if c.Role == "model" {
					ex.Step++
				}
			}
			ex.ToolResults, ex.Problem = geminiToolResults(req, ex.Step, script)
			if ex.Step < len(script) {
				step = script[ex.Step]
			} else {
				ex.Problem = strings.TrimPrefix(ex.Problem+"; ", "; ") + fmt.Sprintf("step %d is past the script's %d steps", ex.Step, len(script))
				step = e2eStep{Text: "script exhausted"}
			}
		}
		rec.Add(ex)
		part := map[string]any{"text": step.Text}
		if step.Tool != "" {
			part = map[string]any{"functionCall": map[string]any{"name": step.Tool, "args": step.Input}}
		}
		resp := map[string]any{
			"candidates": []any{map[string]any{
				"content":      map[string]any{"role": "model", "parts": []any{part}},
				"finishReason": "STOP", "index": 0,
			}},
			"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
			"modelVersion":  "gemini-fake",
		}
		raw, _ := json.Marshal(resp)
		if method == "streamGenerateContent" {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\r\n\r\n", raw)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(raw)
	})
}

// geminiToolResults returns the functionResponse parts of the request's
// newest user content, and a problem if the fake's previous step was a
// call and there is no response to it.
func geminiToolResults(req geminiRequest, step int, script []e2eStep) ([]e2eToolResult, string) {
	if step == 0 || step > len(script) || script[step-1].Tool == "" || len(req.Contents) == 0 {
		return nil, ""
	}
	last := req.Contents[len(req.Contents)-1]
	var out []e2eToolResult
	for _, p := range last.Parts {
		if p.FunctionResponse != nil {
			out = append(out, e2eToolResult{ID: p.FunctionResponse.ID, Name: p.FunctionResponse.Name, Text: string(p.FunctionResponse.Response)})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("no functionResponse to %s in the newest content", script[step-1].Tool)
	}
	if out[0].Name != script[step-1].Tool {
		return out, fmt.Sprintf("functionResponse names %s, the call was %s", out[0].Name, script[step-1].Tool)
	}
	return out, ""
}
