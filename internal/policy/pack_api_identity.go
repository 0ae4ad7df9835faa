package policy

import "strings"

// Identity providers' admin APIs called by hand (curl … okta.com/api/v1
// …, graph.microsoft.com, a tenant's Management API): the body or the
// path says what the call does to people's accounts, whatever the
// provider. The words are data (remoteops.txt api-role-key,
// api-cred-verb, api-cred-object).

// apiIdentityChange says why a mutating API call raises a role or takes
// over an account, "" for none: a role-naming body key given an
// administrator's value ({"type":"SUPER_ADMIN"} on …/roles, role=org_admin,
// "roleDefinitionId":"…GlobalAdministrator"), or a path that resets or
// expires another user's password or second factors
// (…/lifecycle/reset_factors, …/credentials/change_password).
func apiIdentityChange(r apiCall) string {
	roleKeys, admin := opsList("api-role-key"), opsList("api-admin-part")
	roles := false
	for _, u := range r.urls {
		for _, w := range wordsOf(urlPath(u)) {
			roles = roles || w == "roles" || w == "role" || w == "roleassignments" || w == "approleassignments"
		}
	}
	for _, kv := range bodyPairs(r.body) {
		if !roleKeys[kv[0]] && !(kv[0] == "type" && roles) {
			continue
		}
		for a := range admin {
			if strings.Contains(kv[1], a) {
				return kv[0] + "=" + kv[1] + " (a role raised to administrator)"
			}
		}
	}
	for _, kv := range bodyPairs(r.body) {
		if opsList("api-cred-key")[kv[0]] {
			return kv[0] + " in the body (another user's password set)"
		}
	}
	for _, u := range r.urls {
		for _, w := range wordsOf(urlPath(u)) {
			for _, v := range []string{"make", "set", "grant", "promote", "add"} {
				if strings.HasPrefix(w, v) && (strings.Contains(w, "admin") || strings.Contains(w, "owner")) {
					return "…/" + w + " (an administrator made)" // Google's users/x/makeAdmin, Slack's admin.users.setOwner
				}
			}
			if strings.Contains(w, "forwarding") && mailAddress.MatchString(r.body) && !strings.Contains(strings.ReplaceAll(strings.ToLower(r.body), " ", ""), `"enabled":false`) {
				return "…/" + w + " with an address (mail forwarded)" // Gmail settings/autoForwarding
			}
		}
	}
	verbs, objects := opsList("api-cred-verb"), opsList("api-cred-object")
	for _, u := range r.urls {
		verb, object := "", ""
		for _, w := range wordsOf(urlPath(u)) {
			if verbs[w] {
				verb = w
			} else if objects[w] && verb != "" {
				object = w
			}
		}
		if object != "" {
			return "a " + verb + " of a user's " + object + " (an account taken over)"
		}
	}
	return ""
}

// mailAddress: an e-mail address in a request body.
var mailAddress = re(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z0-9.-]+`)
