package policy

import "testing"

func TestRetentionDays(t *testing.T) {
	for _, c := range []struct {
		key, v string
		want   float64
	}{
		{"--retention-days", "1", 1},
		{"retention.ms", "3600000", 1.0 / 24},
		{"log.retention.hours", "12", 0.5},
		{"--retention", "1d", 1},
		{"--retention", "48h", 2},
		{"--retention", "30", -1}, // no unit: the line does not say how long
		{"retention", "forever", -1},
		{"retention.ms", "-1", -1}, // Kafka's "keep forever"
	} {
		if got := retentionDays(c.key, c.v); got != c.want {
			t.Errorf("retentionDays(%q, %q) = %v, want %v", c.key, c.v, got, c.want)
		}
	}
}

func TestProdPlace(t *testing.T) {
	for v, want := range map[string]bool{
		"https://api.shop-prod.acme.com": true, "prod-eu-1": true, "liquibase.prod.properties": true,
		"sqlprod01": true, "dbprd2.corp.local": true, "acme-prod.a2dd6": true,
		"preprod-eu-1": false, "non-prod": false, "product-db": false, "https://staging.acme.com": false,
		"$DB": false, "reproduce": false,
	} {
		if got := prodPlace(v); got != want {
			t.Errorf("prodPlace(%q) = %v, want %v", v, got, want)
		}
	}
}
