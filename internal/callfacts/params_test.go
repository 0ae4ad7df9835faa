package callfacts

import "testing"

func TestBindParams(t *testing.T) {
	for _, tc := range []struct {
		payload string
		params  []string
		want    string
	}{
		{`rm -rf "$1"`, []string{"~/Archive"}, `rm -rf "$HOME/Archive"`},
		{`cd "${1}" && rm -rf ./*`, []string{"$HOME"}, `cd "$HOME" && rm -rf ./*`},
		{`rm -rf "$@"`, []string{"./build", "./dist"}, `rm -rf "./build" "./dist"`},
		{`rm -rf $*`, []string{"./build", "./dist"}, `rm -rf ./build ./dist`},
		{`echo $2 $1`, []string{"a", "b"}, `echo b a`},
		{`echo $10 $HOME $3`, []string{"a"}, `echo $10 $HOME `},
		{`rm -rf "$1"`, []string{"my dir"}, `rm -rf "$1"`}, // pasting would change the words
		{`rm -rf "$1"`, nil, `rm -rf "$1"`},
	} {
		if got := bindParams(tc.payload, tc.params); got != tc.want {
			t.Errorf("bindParams(%q, %q) = %q, want %q", tc.payload, tc.params, got, tc.want)
		}
	}
}
