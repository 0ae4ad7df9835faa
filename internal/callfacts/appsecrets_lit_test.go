package callfacts

import "testing"

// A glob's literal run lets AppSecretFile skip names that cannot match;
// it must never be a run the glob does not require.
func TestLongestLiteral(t *testing.T) {
	for glob, want := range map[string]string{"*credentials*.json": "credentials", "ssfn*": "ssfn", "*": "", "id_[rd]sa*": "id_", "?x": "x", "*.key": ".key"} {
		if got := longestLiteral(glob); got != want {
			t.Errorf("%s: %q, want %q", glob, got, want)
		}
	}
	for _, p := range []string{"/home/dev/.config/gcloud/application_default_credentials.json", "play-store-credentials.json"} {
		if AppSecretFile(p) == "" {
			t.Errorf("%s is not an application's credentials file", p)
		}
	}
}
