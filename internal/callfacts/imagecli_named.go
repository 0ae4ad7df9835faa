package callfacts

import "strings"

// namedImageCLI: an image no table names whose own name says it is a
// command-line client (registry.mill.local/mes-cli, acme/orderctl,
// corp/billing-admin): its entrypoint is that client, so the words
// after the image are the client's subcommand (docker run … mes-cli
// orders cancel 42 is mes-cli orders cancel 42), not a program of their
// own. "" when the image's name says no such thing or the first word
// is a program warden knows or a path (docker run app-cli python x.py,
// docker run x-cli /bin/sh): then that program runs.
func namedImageCLI(image, first string) string {
	base := strings.ToLower(image)
	if i := strings.LastIndexByte(base, '@'); i > 0 {
		base = base[:i]
	}
	if i := strings.LastIndexByte(base, ':'); i > strings.LastIndexByte(base, '/') {
		base = base[:i]
	}
	base = base[strings.LastIndexByte(base, '/')+1:]
	named := false
	for _, suf := range []string{"-cli", "_cli", "ctl", "-admin", "-tool", "-tools"} {
		if len(base) > len(suf) && strings.HasSuffix(base, suf) {
			named = true
			break
		}
	}
	if !named || first == "" || strings.ContainsAny(first, "/.$`=") || strings.HasPrefix(first, "-") || Known(ProgramName(first)) || ProgramName(first) == base {
		return ""
	}
	return base
}
