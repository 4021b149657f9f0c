package secrets

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// writeRequest writes the Request of blobs and messages (ProtocolVersion)
// to w as JSON, the same bytes json.Marshal makes of it, followed by a
// newline. It encodes as it writes: no blob's content is held a second
// time, as base64, and the whole request never is. encoding/json cannot do
// that: json.Marshal and json.Encoder.Encode both build the whole value in
// memory first. Cancelled ctx stops it between blobs with ctx.Err().
func writeRequest(ctx context.Context, w io.Writer, blobs []Blob, messages []Message) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	// bufio.Writer keeps its first error and returns it from every later
	// call, so only the writes that can be long (contents) and the final
	// Flush need checking.
	bw.WriteString(`{"Version":` + strconv.Itoa(ProtocolVersion) + `,"Blobs":`)
	if blobs == nil {
		bw.WriteString("null")
	} else {
		bw.WriteByte('[')
		for i, b := range blobs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if i > 0 {
				bw.WriteByte(',')
			}
			if err := writeBlob(bw, b); err != nil {
				return err
			}
		}
		bw.WriteByte(']')
	}
	bw.WriteString(`,"Messages":`)
	if messages == nil {
		bw.WriteString("null")
	} else {
		bw.WriteByte('[')
		for i, m := range messages {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString(`{"Session":`)
			writeJSON(bw, m.Session)
			bw.WriteString(`,"Commit":`)
			writeJSON(bw, m.Commit)
			bw.WriteString(`,"Text":`)
			writeJSON(bw, m.Text)
			bw.WriteByte('}')
		}
		bw.WriteByte(']')
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// writeBlob writes b as json.Marshal would, its content base64-encoded
// straight into bw.
func writeBlob(bw *bufio.Writer, b Blob) error {
	bw.WriteString(`{"Session":`)
	writeJSON(bw, b.Session)
	bw.WriteString(`,"Commit":`)
	writeJSON(bw, b.Commit)
	bw.WriteString(`,"Path":`)
	writeJSON(bw, b.Path)
	bw.WriteString(`,"Content":`)
	if b.Content == nil {
		bw.WriteString("null")
	} else {
		// Standard base64 has no character JSON must escape.
		bw.WriteByte('"')
		enc := base64.NewEncoder(base64.StdEncoding, bw)
		if _, err := enc.Write(b.Content); err != nil {
			return err
		}
		if err := enc.Close(); err != nil {
			return err
		}
		bw.WriteByte('"')
	}
	bw.WriteString(`,"Added":`)
	writeJSON(bw, b.Added)
	_, err := bw.WriteString("}")
	return err
}

// writeJSON writes v, small (a string, the added line ranges), as
// json.Marshal encodes it.
func writeJSON(bw *bufio.Writer, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		// Strings and []LineRange always encode.
		panic(fmt.Sprintf("secrets: encoding %T: %v", v, err))
	}
	bw.Write(data)
}
