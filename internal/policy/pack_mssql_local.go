package policy

import (
	"strings"
)

// mssqlLocal: a SQL Server address on this machine, in the client's own
// syntax [tcp:|np:|lpc:]SERVER[\INSTANCE][,PORT]: "." and "(local)" are
// the default instance, "(localdb)\MSSQLLocalDB" the per-user LocalDB
// that Visual Studio creates for development, ".\SQLEXPRESS" and
// "localhost,1433" the local server.
func mssqlLocal(h string) bool {
	h = strings.ToLower(strings.Trim(h, `"'`))
	for _, p := range []string{"tcp:", "np:", "lpc:", "admin:"} {
		h = strings.TrimPrefix(h, p)
	}
	if i := strings.IndexByte(h, ','); i >= 0 {
		h = h[:i]
	}
	if i := strings.IndexByte(h, '\\'); i > 0 {
		h = h[:i]
	}
	switch h {
	case ".", "(local)", "(localdb)", "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

// testDBCamel: a test database named the .NET way (ProjTests, Acme.Tests,
// OrdersTestDb): case matters, so "LATEST" or "latest" are not tests.
var testDBCamel = re(`(?:[a-z0-9]|\.)Tests?(?:Db|DB|Database)?\b`)
