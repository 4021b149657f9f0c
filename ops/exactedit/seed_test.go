package exactedit

import (
	"slices"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops/text"
)

// TestSeedExamples runs every usage example of seed 002 as it is written
// (the one-liner with a line-number prefix has its tab escaped, since a raw
// tab is not valid in a JSON string):
// its JSON arguments (copied verbatim) go through ParseEdit and PlanEdit
// against a file that holds the text, and the result is compared byte for
// byte.
func TestSeedExamples(t *testing.T) {
	tests := []struct {
		name, args, content, want string
		replacements, line        int
		notes                     []string
	}{
		{
			name:         "Simple Text Replacement",
			args:         `{"file_path": "/src/config.js", "old_string": "const API_URL = 'http://localhost:3000';", "new_string": "const API_URL = 'https://api.production.com';"}`,
			content:      "// config\nconst API_URL = 'http://localhost:3000';\nconst TIMEOUT = 5000;\n",
			want:         "// config\nconst API_URL = 'https://api.production.com';\nconst TIMEOUT = 5000;\n",
			replacements: 1, line: 2,
		},
		{
			name: "Function Modification",
			args: `{
  "file_path": "/src/utils.js",
  "old_string": "function validateEmail(email) {\n    return email.includes('@');\n}",
  "new_string": "function validateEmail(email) {\n    const emailRegex = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/;\n    return emailRegex.test(email);\n}"
}`,
			content:      "'use strict';\n\nfunction validateEmail(email) {\n    return email.includes('@');\n}\n\nmodule.exports = { validateEmail };\n",
			want:         "'use strict';\n\nfunction validateEmail(email) {\n    const emailRegex = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/;\n    return emailRegex.test(email);\n}\n\nmodule.exports = { validateEmail };\n",
			replacements: 1, line: 3,
		},
		{
			name: "Variable Renaming (replace_all)",
			args: `{
  "file_path": "/src/component.js",
  "old_string": "oldVariableName",
  "new_string": "newVariableName",
  "replace_all": true
}`,
			content:      "let oldVariableName = 1;\nfunction f() {\n  return oldVariableName + oldVariableName;\n}\n",
			want:         "let newVariableName = 1;\nfunction f() {\n  return newVariableName + newVariableName;\n}\n",
			replacements: 3, line: 1,
		},
		{
			name: "Code Block Replacement",
			args: `{
  "file_path": "/src/handler.js",
  "old_string": "try {\n    const data = JSON.parse(input);\n    return data;\n} catch (error) {\n    console.log('Parse error');\n    return null;\n}",
  "new_string": "try {\n    const data = JSON.parse(input);\n    return data;\n} catch (error) {\n    logger.error('JSON parse error:', error);\n    throw new ValidationError('Invalid JSON input');\n}"
}`,
			content:      "function parse(input) {\ntry {\n    const data = JSON.parse(input);\n    return data;\n} catch (error) {\n    console.log('Parse error');\n    return null;\n}\n}\n",
			want:         "function parse(input) {\ntry {\n    const data = JSON.parse(input);\n    return data;\n} catch (error) {\n    logger.error('JSON parse error:', error);\n    throw new ValidationError('Invalid JSON input');\n}\n}\n",
			replacements: 1, line: 2,
		},
		{
			name: "Content Deletion",
			args: `{
  "file_path": "/src/debug.js",
  "old_string": "console.log('Debug info:', data);",
  "new_string": ""
}`,
			content:      "function show(data) {\n  console.log('Debug info:', data);\n  return data;\n}\n",
			want:         "function show(data) {\n  \n  return data;\n}\n",
			replacements: 1, line: 2,
		},
		{
			name: "Multi-line String Replacement",
			args: `{
  "file_path": "/src/component.jsx",
  "old_string": "const Component = () => {\n  return (\n    <div>\n      <h1>Title</h1>\n    </div>\n  );\n};",
  "new_string": "const Component = ({ title }) => {\n  return (\n    <div>\n      <h1>{title}</h1>\n    </div>\n  );\n};"
}`,
			content:      "import React from 'react';\n\nconst Component = () => {\n  return (\n    <div>\n      <h1>Title</h1>\n    </div>\n  );\n};\n\nexport default Component;\n",
			want:         "import React from 'react';\n\nconst Component = ({ title }) => {\n  return (\n    <div>\n      <h1>{title}</h1>\n    </div>\n  );\n};\n\nexport default Component;\n",
			replacements: 1, line: 3,
		},
		{
			name: "Configuration Updates",
			args: `{
  "file_path": "/package.json",
  "old_string": "  \"version\": \"1.0.0\",",
  "new_string": "  \"version\": \"1.1.0\","
}`,
			content:      "{\n  \"name\": \"app\",\n  \"version\": \"1.0.0\",\n  \"private\": true\n}\n",
			want:         "{\n  \"name\": \"app\",\n  \"version\": \"1.1.0\",\n  \"private\": true\n}\n",
			replacements: 1, line: 3,
		},
		{
			name: "Import Statement Changes",
			args: `{
  "file_path": "/src/app.js",
  "old_string": "import { oldFunction } from './utils';",
  "new_string": "import { newFunction } from './utils';"
}`,
			content:      "import { oldFunction } from './utils';\nimport React from 'react';\n",
			want:         "import { newFunction } from './utils';\nimport React from 'react';\n",
			replacements: 1, line: 1,
		},
		{
			name: "Bulk Variable Renaming",
			args: `{
  "file_path": "/src/calculator.js",
  "old_string": "oldVarName",
  "new_string": "newVarName",
  "replace_all": true
}`,
			content:      "const oldVarName = 2;\nconst twice = oldVarName * 2;\n// oldVarName is the base\n",
			want:         "const newVarName = 2;\nconst twice = newVarName * 2;\n// newVarName is the base\n",
			replacements: 3, line: 1,
		},
		{
			name: "Indentation Preservation",
			args: `{
  "file_path": "/src/app.js",
  "old_string": "    const result = processData(input);",
  "new_string": "    const result = await processDataAsync(input);"
}`,
			content:      "// Original code with specific indentation\nif (condition) {\n    const result = processData(input);\n    return result;\n}\n",
			want:         "// Original code with specific indentation\nif (condition) {\n    const result = await processDataAsync(input);\n    return result;\n}\n",
			replacements: 1, line: 3,
		},
		{
			name: "Line Number Prefix Handling, correct extraction",
			args: `{
  "file_path": "/src/total.js",
  "old_string": "    function calculateTotal(items) {\n        return items.reduce((sum, item) => sum + item.price, 0);\n    }",
  "new_string": "    function calculateTotal(items) {\n        return items.reduce((sum, item) => sum + item.total, 0);\n    }"
}`,
			content:      totalJS,
			want:         totalJSFixed,
			replacements: 1, line: 45,
		},
		{
			name: "Line Number Prefix Handling, copied with prefixes",
			args: `{
  "file_path": "/src/total.js",
  "old_string": "    45\t    function calculateTotal(items) {\n    46\t        return items.reduce((sum, item) => sum + item.price, 0);\n    47\t    }",
  "new_string": "    45\t    function calculateTotal(items) {\n    46\t        return items.reduce((sum, item) => sum + item.total, 0);\n    47\t    }"
}`,
			content:      totalJS,
			want:         totalJSFixed,
			replacements: 1, line: 45,
			notes: []string{
				`old_string had Read line-number prefixes (e.g. "    45\t"); they were removed before matching`,
				"new_string had line-number prefixes too; they were removed from it as well",
			},
		},
		{
			name:         "Line Number Prefix Handling, the incorrect one-liner",
			args:         `{"file_path": "/src/total.js", "old_string": "    45\t    function calculateTotal(items) {", "new_string": "    function calculateTotal(items, tax) {"}`,
			content:      totalJS,
			want:         strings.Replace(totalJS, "calculateTotal(items)", "calculateTotal(items, tax)", 1),
			replacements: 1, line: 45,
			notes: []string{`old_string had Read line-number prefixes (e.g. "    45\t"); they were removed before matching`},
		},
		{
			name:         "Good - Include enough context for uniqueness",
			args:         `{"file_path": "/src/tax.js", "old_string": "  const tax = amount * rate;\n  return tax;", "new_string": "  const tax = Math.round(amount * rate);\n  return tax;"}`,
			content:      "function calculateTax(amount, rate) {\n  const tax = amount * rate;\n  return tax;\n}\n",
			want:         "function calculateTax(amount, rate) {\n  const tax = Math.round(amount * rate);\n  return tax;\n}\n",
			replacements: 1, line: 2,
		},
		{
			name: "Context-Aware Replacement",
			args: `{"file_path": "/src/prefs.js",
  "old_string": "// Calculate user preferences\nconst preferences = getDefaultPreferences();",
  "new_string": "// Calculate user preferences\nconst preferences = await getUserPreferences(userId);"
}`,
			content:      "const preferences0 = getDefaultPreferences();\n// Calculate user preferences\nconst preferences = getDefaultPreferences();\n",
			want:         "const preferences0 = getDefaultPreferences();\n// Calculate user preferences\nconst preferences = await getUserPreferences(userId);\n",
			replacements: 1, line: 2,
		},
		{
			name:         "Safe - Specific, surgical change",
			args:         `{"file_path": "/src/flags.js", "old_string": "const DEBUG = true;", "new_string": "const DEBUG = false;"}`,
			content:      "const DEBUG = true;\nconst CACHE = true;\n",
			want:         "const DEBUG = false;\nconst CACHE = true;\n",
			replacements: 1, line: 1,
		},
		{
			name:         "Risky - Very broad change",
			args:         `{"file_path": "/src/flags.js", "old_string": "true", "new_string": "false", "replace_all": true}`,
			content:      "const DEBUG = true;\nconst CACHE = true;\n",
			want:         "const DEBUG = false;\nconst CACHE = false;\n",
			replacements: 2, line: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := ParseEdit([]byte(tt.args))
			if err != nil {
				t.Fatalf("ParseEdit: %v", err)
			}
			content := []byte(tt.content)
			p, err := PlanEdit(content, a.OldString, a.NewString, a.ReplaceAll)
			if err != nil {
				t.Fatalf("PlanEdit: %v", err)
			}
			got, err := text.ApplyEdits(content, p.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if p.Replacements != tt.replacements || p.Line != tt.line || !slices.Equal(p.Notes, tt.notes) {
				t.Errorf("planned replacements %d line %d notes %q; want %d, %d, %q", p.Replacements, p.Line, p.Notes, tt.replacements, tt.line, tt.notes)
			}
		})
	}
}

// totalJS has the seed's calculateTotal at lines 45 to 47, as the seed's
// Read excerpt shows it.
var totalJS = func() string {
	s := ""
	for i := 1; i <= 44; i++ {
		s += "// line\n"
	}
	return s + "    function calculateTotal(items) {\n        return items.reduce((sum, item) => sum + item.price, 0);\n    }\n" + "// 48\n"
}()

// totalJSFixed is totalJS after the seed's calculateTotal edit.
var totalJSFixed = strings.Replace(totalJS, "item.price", "item.total", 1)
