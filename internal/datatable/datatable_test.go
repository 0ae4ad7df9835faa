package datatable_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/warden-dev/warden/internal/datatable"
)

func TestLinesSkipsCommentsAndBlanks(t *testing.T) {
	text := "# a table\n\nrm  args=delete\n   \n  # indented comment\ncp\targs=write copies\n"
	ls := datatable.Lines("tools.txt", text)
	if len(ls) != 2 {
		t.Fatalf("got %d lines, want 2: %+v", len(ls), ls)
	}
	if ls[0].N != 3 || !slices.Equal(ls[0].Fields, []string{"rm", "args=delete"}) || ls[0].Text != "rm  args=delete" {
		t.Errorf("first line: %+v", ls[0])
	}
	if ls[1].N != 6 || !slices.Equal(ls[1].Fields, []string{"cp", "args=write", "copies"}) {
		t.Errorf("second line: %+v", ls[1])
	}
}

func TestReadNamesTheLine(t *testing.T) {
	err := datatable.Read("rshell.txt", "# x\nssh - dash\nfly\n", 2, func(datatable.Line) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), "rshell.txt:3: 1 fields, want at least 2") {
		t.Errorf("short line: %v", err)
	}
	boom := errors.New("boom")
	err = datatable.Read("x.txt", "a b\n", 1, func(l datatable.Line) error { return l.Errorf("bad %s: %w", l.Fields[1], boom) })
	if err == nil || err.Error() != "x.txt:1: bad b: boom" {
		t.Errorf("fn's error: %v", err)
	}
}

func TestMustPanicsWithTheLine(t *testing.T) {
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(error).Error(), "t.txt:2:") {
			t.Errorf("panic %v, want one naming t.txt:2", p)
		}
	}()
	datatable.Must("t.txt", "ok 1\nbad\n", 2, func(datatable.Line) error { return nil })
}

func TestWords(t *testing.T) {
	w := datatable.Words("x.txt", "# c\na b\n\nc\n")
	if len(w) != 3 || !w["a"] || !w["b"] || !w["c"] {
		t.Errorf("words %v", w)
	}
}
