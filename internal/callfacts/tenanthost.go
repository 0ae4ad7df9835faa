package callfacts

import "strings"

// A SaaS tenant's URL names its environment in its first label:
// https://contoso-dev-jsmith.crm.dynamics.com is the Dataverse
// environment contoso-dev-jsmith, https://dev218734.service-now.com a
// personal developer instance, acme--uat.sandbox.my.salesforce.com a
// sandbox. Given to a CLI's target option (pac --environment, snc
// --instance, sf --instance-url), that label is read as the target's
// name, as a plain name is (ownTarget); any other URL's host says
// nothing of what it holds (https://ci.example.org).
var tenantDomains = []string{".crm.dynamics.com", ".crm2.dynamics.com", ".crm3.dynamics.com", ".crm4.dynamics.com", ".crm5.dynamics.com",
	".crm6.dynamics.com", ".crm7.dynamics.com", ".crm8.dynamics.com", ".crm9.dynamics.com", ".crm11.dynamics.com", ".crm12.dynamics.com",
	".crm15.dynamics.com", ".crm21.dynamics.com", ".service-now.com", ".servicenowservices.com", ".my.salesforce.com", ".lightning.force.com",
	".atlassian.net", ".zendesk.com", ".myshopify.com", ".cloud.databricks.com", ".azuredatabricks.net", ".snowflakecomputing.com",
	".workday.com", ".suitetalk.api.netsuite.com", ".app.netsuite.com", ".okta.com", ".auth0.com"}

// tenantLabel is the environment a tenant URL names (its first label),
// "" when val is no tenant URL.
func tenantLabel(val string) string {
	u := strings.ToLower(val)
	for _, p := range []string{"https://", "http://"} {
		u = strings.TrimPrefix(u, p)
	}
	if i := strings.IndexAny(u, "/?#:"); i >= 0 {
		u = u[:i]
	}
	if u == "" || strings.ContainsAny(u, "$@ ") {
		return ""
	}
	for _, d := range tenantDomains {
		if strings.HasSuffix(u, d) {
			label, _, _ := strings.Cut(u, ".")
			return label
		}
	}
	return ""
}
