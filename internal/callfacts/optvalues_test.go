package callfacts

import (
	"slices"
	"testing"
)

func TestOptValues(t *testing.T) {
	c := &Cmd{Name: "aws", Args: []string{"iot", "update-certificate", "--new-status=REVOKED", "--targets", "arn:x/all", "--new-status"}}
	if got := c.OptValues(map[string]bool{"--new-status": true}); !slices.Equal(got, []string{"REVOKED"}) {
		t.Errorf("--new-status: %q", got)
	}
	if got := c.OptValues(map[string]bool{"--targets": true, "--new-status": true}); !slices.Equal(got, []string{"REVOKED", "arn:x/all"}) {
		t.Errorf("both: %q", got)
	}
	if got := c.OptValues(map[string]bool{"--region": true}); got != nil {
		t.Errorf("absent: %q", got)
	}
}
