package pace

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// Current decodes the stored decision once per distinct detail: a caller
// changing what it got changes nothing the next caller gets, and a new
// stored decision (or one edited in the store) is decoded afresh.
func TestCurrentDecodedDecisionIsNeverShared(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := DefaultSettings()
	reset := thuNoon.Add(4 * time.Hour)
	if _, err := st.AddSnapshot(ctx, &quota.Snapshot{Time: thuNoon, Source: quota.SourceStatusline,
		FiveHour: quota.Window{Util: fptr(60), ResetsAt: &reset}}); err != nil {
		t.Fatal(err)
	}
	first, fresh, err := Current(ctx, st, s, "s1", thuNoon)
	if err != nil || !fresh || first.Figures == nil || first.Decision.ConstrainedWindow == nil {
		t.Fatalf("first: %+v fresh=%v err=%v", first, fresh, err)
	}
	stored := func() Record {
		t.Helper()
		d, err := st.LatestDecision(ctx)
		if err != nil || d == nil {
			t.Fatal(d, err)
		}
		var r Record
		if err := json.Unmarshal(d.Detail, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	want := stored()
	for i := range 3 {
		got, fresh, err := Current(ctx, st, s, "s1", thuNoon.Add(time.Second))
		if err != nil || fresh {
			t.Fatalf("round %d: fresh=%v err=%v", i, fresh, err)
		}
		if !reflect.DeepEqual(*got, want) {
			t.Fatalf("round %d:\n got %+v\nwant %+v", i, *got, want)
		}
		// A caller scribbling on every pointer it got.
		*got.Figures.FiveHour.Util, *got.Figures.FiveHour.ResetsAt = -1, time.Time{}
		*got.Decision.ConstrainedWindow = "scribbled"
		if got.Decision.Projection != nil {
			got.Decision.Projection.Allowance = -1
		}
		got.DelaySeconds = -1
	}

	// Another decision stored (a recompute elsewhere, or an edit): read anew.
	edited := want
	edited.DelaySeconds, edited.Note = want.DelaySeconds+7, "edited"
	detail, _ := json.Marshal(edited)
	if _, err := st.SaveDecision(ctx, &quota.Decision{Time: thuNoon.Add(2 * time.Second), SnapshotID: first.Figures.ID,
		DelaySeconds: edited.DelaySeconds, Detail: detail}); err != nil {
		t.Fatal(err)
	}
	got, fresh, err := Current(ctx, st, s, "s1", thuNoon.Add(3*time.Second))
	if err != nil || fresh || got.DelaySeconds != edited.DelaySeconds || got.Note != "edited" {
		t.Fatalf("after a new decision: %+v fresh=%v err=%v", got, fresh, err)
	}
}

// Record.clone copies every pointer a Record holds: a field added to
// Record (or to what it points to) that is a pointer, slice or map must
// be added to clone and to this list.
func TestRecordCloneCoversEveryReference(t *testing.T) {
	var found []string
	var walk func(typ reflect.Type, path string)
	walk = func(typ reflect.Type, path string) {
		switch typ.Kind() {
		case reflect.Pointer:
			found = append(found, path)
			if typ.Elem() != reflect.TypeFor[time.Time]() {
				walk(typ.Elem(), path)
			}
		case reflect.Slice, reflect.Map, reflect.Interface, reflect.Chan, reflect.Func:
			found = append(found, path)
		case reflect.Struct:
			if typ == reflect.TypeFor[time.Time]() {
				return
			}
			for i := range typ.NumField() {
				walk(typ.Field(i).Type, path+"."+typ.Field(i).Name)
			}
		}
	}
	walk(reflect.TypeFor[Record](), "")
	want := []string{".Figures", ".Figures.FiveHour.Util", ".Figures.FiveHour.ResetsAt",
		".Figures.SevenDay.Util", ".Figures.SevenDay.ResetsAt",
		".Decision.ConstrainedWindow", ".Decision.Projection", ".Decision.Trace"}
	if !slices.Equal(found, want) {
		t.Fatalf("Record's references are %q; clone copies %q", found, want)
	}
	// And clone does copy each of them.
	w := SevenDay
	r := &Record{Figures: &quota.Snapshot{FiveHour: quota.Window{Util: fptr(1), ResetsAt: tptr(thuNoon)},
		SevenDay: quota.Window{Util: fptr(2), ResetsAt: tptr(thuNoon)}},
		Decision: Decision{ConstrainedWindow: &w, Projection: &Projection{}, Trace: &Trace{}}}
	c := r.clone()
	for _, p := range [][2]any{
		{r.Figures, c.Figures}, {r.Figures.FiveHour.Util, c.Figures.FiveHour.Util},
		{r.Figures.FiveHour.ResetsAt, c.Figures.FiveHour.ResetsAt}, {r.Figures.SevenDay.Util, c.Figures.SevenDay.Util},
		{r.Figures.SevenDay.ResetsAt, c.Figures.SevenDay.ResetsAt}, {r.Decision.ConstrainedWindow, c.Decision.ConstrainedWindow},
		{r.Decision.Projection, c.Decision.Projection}, {r.Decision.Trace, c.Decision.Trace},
	} {
		if reflect.ValueOf(p[0]).Pointer() == reflect.ValueOf(p[1]).Pointer() {
			t.Errorf("clone shares %T", p[0])
		}
	}
	if !reflect.DeepEqual(r, c) {
		t.Errorf("clone differs: %+v", c)
	}
}
