package share

import "testing"

func TestOwnerFromEmail(t *testing.T) {
	for _, c := range []struct{ email, want string }{
		{"alice@example.com", "alice@example.com"},
		{"Alice.Smith@Example.COM", "alice.smith@example.com"},
		{" bob+ci@example.com ", "bob+ci@example.com"},
		{"a b/c:d~e^f?g*h[i\\j@x", "a-b-c-d-e-f-g-h-i-j@x"},
		{"..dots..@x..", "dots-@x"},
		{"élodie@exemple.fr", "lodie@exemple.fr"},
		{"", ""},
		{"@{", "@"},
	} {
		if got := ownerFromEmail(c.email); got != c.want {
			t.Errorf("ownerFromEmail(%q) = %q, want %q", c.email, got, c.want)
		}
	}
}
