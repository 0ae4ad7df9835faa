package policy

import "strings"

// testStoreConf: the line points a program's own store at the project's
// test fixtures — an environment assignment of its config or home
// (SOFTHSM2_CONF="$PWD/tests/softhsm2.conf", GNUPGHOME=./tests/gnupg) or a
// config option (--config tests/softhsm2.conf) whose value lies under a
// tests/, test/, testdata/, fixtures/ or spec/ directory of the working
// tree. What a destroy verb then removes (softhsm2-util --delete-token
// --token test-ci) is a token, keyring or store the test suite made on
// this machine, not a remote resource.
var testStoreConf = re(`(?:^|\s)(?:export\s+)?[A-Z][A-Z0-9_]*(?:CONF|CONFIG|HOME|DIR|STORE|PATH)=["']?(?:\$PWD/|\$\{PWD\}/|\./)?(?:tests?|testdata|fixtures|spec)/\S*|\s--?(?:config|conf|c)[= ]["']?(?:\./)?(?:tests?|testdata|fixtures|spec)/`)

// testStore: c's store is the project's test fixture (testStoreConf), the
// object it names carries a dev or test word, and nothing names
// production or another host.
func testStore(e *Env, c *Cmd) bool {
	if !strings.Contains(e.F.Command, "test") && !strings.Contains(e.F.Command, "fixtures") && !strings.Contains(e.F.Command, "spec/") {
		return false
	}
	if !testStoreConf.MatchString(e.F.Command) || prodWord.MatchString(e.F.Command) || len(c.Wrappers) > 0 && hostElsewhere(e.F.Command) {
		return false
	}
	for _, p := range c.Pos {
		if devName(p) {
			return true
		}
	}
	for i := 1; i < len(c.Args); i++ {
		if strings.HasPrefix(c.Args[i-1], "-") && !strings.HasPrefix(c.Args[i], "-") && devName(c.Args[i]) && !strings.Contains(c.Args[i], "/") {
			return true // --token test-ci, --label dev-keys
		}
	}
	return false
}
