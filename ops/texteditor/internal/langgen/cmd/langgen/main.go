// Command langgen writes package lang's language tables (see package
// langgen) to the file named by -o. It is run by go generate in
// ops/texteditor/internal/lang.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/git-edit/git-edit/ops/texteditor/internal/langgen"
)

func main() {
	out := flag.String("o", "tables.go", "file to write the generated tables to")
	flag.Parse()
	src, err := langgen.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "langgen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "langgen:", err)
		os.Exit(1)
	}
}
