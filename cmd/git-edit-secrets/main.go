// Command git-edit-secrets is the companion program of git-edit that looks
// for secrets in what `git edit push` would send: it reads one request
// (package secrets' Request, JSON) on standard input, scans it with
// gitleaks' default rules (package scanner) and writes the response (JSON,
// one line) on standard output: its protocol version, what it scanned, the
// findings. A request of another protocol version (a git-edit built from
// another checkout) is answered with an error saying to install both
// programs from the same checkout, and not scanned. git-edit starts it; it
// lives apart from git-edit so that gitleaks does not slow the start of
// every git-edit command. Exit status 0 when it answered (findings or the
// scan's error are in the response) or was given no request, 2 when the
// input is not a request or the answer could not be written (stderr says
// why).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/git-edit/git-edit/ops/share/secrets/scanner"
)

func main() {
	// The detector builds while the request is still being read.
	scanner.Warm()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := scanner.Serve(ctx, os.Stdin, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "git-edit-secrets: %v\n", err)
		os.Exit(2)
	}
}
