package registry

import (
	"context"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/duration"
)

// Table is the server-side table of a kind, what kubectl get prints: the
// name, the kind's own columns, the age unless NoAge, and -o wide columns.
// A Whole table is only its Columns and Cells.
type Table struct {
	Columns []metav1.TableColumnDefinition
	// Cells are the values of one object between its name and its age.
	Cells func(obj runtime.Object) []any
	// NoAge leaves the age out, for kinds whose Kubernetes table shows
	// a creation time among Columns instead.
	NoAge bool
	// Wide are columns after the age that kubectl shows only with -o
	// wide, and WideCells their values.
	Wide      []metav1.TableColumnDefinition
	WideCells func(obj runtime.Object) []any
	// Whole says Columns, with their own priorities, and Cells are the
	// entire row, for kinds whose Kubernetes table does not read name,
	// columns, age: Event's starts with the last time seen and has the
	// name among its -o wide columns.
	Whole bool
}

func (t Table) ConvertToTable(_ context.Context, object runtime.Object, tableOptions runtime.Object) (*metav1.Table, error) {
	out := &metav1.Table{}
	fill := func(obj runtime.Object) error {
		m, err := meta.Accessor(obj)
		if err != nil {
			return err
		}
		if t.Whole {
			out.Rows = append(out.Rows, metav1.TableRow{Cells: t.Cells(obj), Object: runtime.RawExtension{Object: obj}})
			return nil
		}
		cells := append([]any{m.GetName()}, t.Cells(obj)...)
		if !t.NoAge {
			cells = append(cells, Age(m.GetCreationTimestamp()))
		}
		if t.WideCells != nil {
			cells = append(cells, t.WideCells(obj)...)
		}
		out.Rows = append(out.Rows, metav1.TableRow{Cells: cells, Object: runtime.RawExtension{Object: obj}})
		return nil
	}
	if meta.IsListType(object) {
		if err := meta.EachListItem(object, fill); err != nil {
			return nil, err
		}
		if l, err := meta.ListAccessor(object); err == nil {
			out.ResourceVersion = l.GetResourceVersion()
			out.Continue = l.GetContinue()
			out.RemainingItemCount = l.GetRemainingItemCount()
		}
	} else {
		if err := fill(object); err != nil {
			return nil, err
		}
		if m, err := meta.Accessor(object); err == nil {
			out.ResourceVersion = m.GetResourceVersion()
		}
	}
	if opt, ok := tableOptions.(*metav1.TableOptions); ok && opt.NoHeaders {
		return out, nil
	}
	if t.Whole {
		out.ColumnDefinitions = t.Columns
		return out, nil
	}
	out.ColumnDefinitions = append([]metav1.TableColumnDefinition{{
		Name: "Name", Type: "string", Format: "name", Description: metav1.ObjectMeta{}.SwaggerDoc()["name"],
	}}, t.Columns...)
	if !t.NoAge {
		out.ColumnDefinitions = append(out.ColumnDefinitions, metav1.TableColumnDefinition{
			Name: "Age", Type: "string", Description: metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"],
		})
	}
	for _, c := range t.Wide {
		c.Priority = 1
		out.ColumnDefinitions = append(out.ColumnDefinitions, c)
	}
	return out, nil
}

// Age is how long ago t was, as kubectl prints ages.
func Age(t metav1.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(time.Since(t.Time))
}

// Count is a count as a cell.
func Count(n int) string { return strconv.Itoa(n) }

// Column defines a column of a Table.
func Column(name, typ, description string) metav1.TableColumnDefinition {
	return metav1.TableColumnDefinition{Name: name, Type: typ, Description: description}
}
