package difftest

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// tableAccept is what kubectl get asks for.
const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

// table compares the Table both servers answer kubectl get of kind k's
// base object with: column definitions, and the cells of its row.
func (r *runner) table(ctx context.Context, k Kind) {
	if createOnly(k) || !k.Can("list") {
		return
	}
	req := Request{
		Method: http.MethodGet, Path: k.collectionPath(r.opts.Namespace), Accept: tableAccept,
		Query: url.Values{"fieldSelector": {"metadata.name=" + k.objectName("base")}},
	}
	kube, hub := r.both(ctx, req)
	c := Case{Kind: k, Seed: r.opts.Seed, Index: -1, Op: "table", Mutation: "kubectl get of the base object"}
	diffs := CompareAnswers(Answer{Code: kube.Code, Err: kube.Err, Raw: kube.Raw, Body: tableOf(kube.Body)},
		Answer{Code: hub.Code, Err: hub.Err, Raw: hub.Raw, Body: tableOf(hub.Body)})
	for i := range diffs {
		if diffs[i].Aspect == AspectObject {
			diffs[i].Aspect = AspectTable
			diffs[i].Class = "table" + strings.TrimPrefix(diffs[i].Class, "object")
		}
	}
	r.report.add(k, diffs, example(c, req, kube, hub))
}

// tableOf is the part of a Table answer that is compared: its kind, the
// column definitions and the rows' cells, ages, uids, allocated
// addresses and the caller's name replaced by placeholders. An answer
// that is no Table stays as it is.
func tableOf(body map[string]any) map[string]any {
	if body == nil || body["kind"] != "Table" {
		return body
	}
	out := map[string]any{"kind": "Table", "columnDefinitions": body["columnDefinitions"]}
	columns, _ := body["columnDefinitions"].([]any)
	var rows []any
	list, _ := body["rows"].([]any)
	for _, row := range list {
		row, _ := row.(map[string]any)
		cells, _ := row["cells"].([]any)
		cells = append([]any(nil), cells...)
		uid := uidOf(row)
		for i := range cells {
			if s, ok := cells[i].(string); ok && uid != "" {
				// A Job's selector names the Job's uid.
				cells[i] = strings.ReplaceAll(s, uid, someUID)
			}
			if i >= len(columns) {
				break
			}
			col, _ := columns[i].(map[string]any)
			switch name, _ := col["name"].(string); {
			case col["type"] == "date" || name == "Age":
				cells[i] = someTime
			case name == "Cluster-IP" && isIP(stringOf(cells[i])):
				cells[i] = someAllocated
			case name == "Requestor" && stringOf(cells[i]) != "":
				// A CertificateSigningRequest's requester is the
				// harness, who is each server's own user (Normalize).
				cells[i] = theCaller
			}
		}
		rows = append(rows, map[string]any{"cells": cells})
	}
	out["rows"] = rows
	return out
}

// uidOf is the uid of the object of a Table's row, "" when the row does
// not hold its metadata.
func uidOf(row map[string]any) string {
	obj, _ := row["object"].(map[string]any)
	meta, _ := obj["metadata"].(map[string]any)
	return stringOf(meta["uid"])
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}
