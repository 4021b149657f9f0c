package clikit

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"
)

// GitOrder moves a command's options in front of its operands, so that
// options go anywhere among the arguments, as git takes them: `git edit log
// strbuf.c -n 1 --session agent2`. urfave/cli v2 parses with Go's flag
// package, which stops at the first operand and would take every later
// option for a path; reordering here, once, serves every command.
//
// Which options take a value comes from the command's own flag
// definitions, so `--session NAME` keeps its NAME. `--` ends the options:
// what follows is operands, as given. An option the command does not
// define is moved too, so the parser refuses it by name instead of taking
// it for a path. Like git, `-n1` is `-n 1` and `-5` is `-n 5` for a
// command with an `-n N` option, and -h anywhere asks for the command's
// help only.
//
// args is the whole command line, args[0] the program; a line whose first
// argument is not a command is returned unchanged. An option that needs a
// value and ends the line is an error (the parser would otherwise take the
// "--" before the operands for its value).
func GitOrder(commands []*cli.Command, args []string) ([]string, error) {
	if len(args) < 3 {
		return args, nil
	}
	var cmd *cli.Command
	for _, c := range commands {
		if c.HasName(args[1]) {
			cmd = c
		}
	}
	if cmd == nil {
		return args, nil
	}
	takesValue := map[string]bool{"h": false, "help": false}
	for _, f := range cmd.Flags {
		tv := true
		if v, ok := f.(cli.DocGenerationFlag); ok {
			tv = v.TakesValue()
		}
		for _, n := range f.Names() {
			takesValue[n] = tv
		}
	}
	var opts, operands []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			operands = append(operands, rest[i+1:]...)
			i = len(rest)
		case len(a) < 2 || a[0] != '-':
			// "-" alone is an operand, as for git (standard input).
			operands = append(operands, a)
		case a == "-h" || a == "--help" || a == "-help":
			// Help is all that is asked, whatever else is there (urfave
			// would take an operand for a help topic).
			return []string{args[0], args[1], "--help"}, nil
		default:
			a = gitShortValue(a, takesValue)
			opts = append(opts, a)
			name, _, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if takesValue[name] && !inline {
				if i+1 == len(rest) {
					return nil, fmt.Errorf("flag needs an argument: %s; see git-edit %s --help", a, cmd.Name)
				}
				i++
				opts = append(opts, rest[i])
			}
		}
	}
	out := append(append([]string{}, args[:2]...), opts...)
	if len(operands) > 0 {
		// Operands after "--" stay operands, even one that starts with "-".
		out = append(append(out, "--"), operands...)
	}
	return out, nil
}

var number = regexp.MustCompile(`^[0-9]+$`)

// gitShortValue rewrites git's short forms of a one-letter option with a
// value that Go's flag package does not read: "-n1" to "-n=1", and "-5"
// to "-n=5" when the command has -n. Anything else is returned as it is.
func gitShortValue(a string, takesValue map[string]bool) string {
	if a[1] == '-' || strings.Contains(a, "=") {
		return a
	}
	name := a[1:]
	if _, known := takesValue[name]; known {
		return a
	}
	if number.MatchString(name) && takesValue["n"] {
		return "-n=" + name
	}
	if takesValue[name[:1]] {
		return a[:2] + "=" + a[2:]
	}
	return a
}
