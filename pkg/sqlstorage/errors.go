package sqlstorage

import (
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/storage"
)

// errUnavailable is for a request the database never took up: a write
// cut off during its COMMIT gets errOutcomeUnknown instead, so a write that
// fails with this was not applied.
func errUnavailable(err error) error {
	return apierrors.NewServiceUnavailable(fmt.Sprintf(
		"the datastore cannot be reached (%v); nothing was changed, retry once the database is back", err))
}

func errReadOnly(err error) error {
	return apierrors.NewServiceUnavailable(fmt.Sprintf(
		"the datastore is read-only (%v): it is a standby, or a primary being failed over; the write was not applied. "+
			"Retry once the failover is done; a --datastore URL naming several hosts needs target_session_attrs=read-write", err))
}

// errOutcomeUnknown is for a write whose COMMIT got no answer: it may or
// may not have been applied, so retrying it blindly could apply it twice.
// It carries no Retry-After, which client-go would take as leave to send
// the same request again by itself.
func errOutcomeUnknown(err error) error {
	return apierrors.NewTimeoutError(fmt.Sprintf(
		"the datastore did not confirm the commit (%v); the write may or may not have been applied, read the object before retrying", err), 0)
}

func errInternal(err error) error {
	return apierrors.NewInternalError(fmt.Errorf("datastore error: %w", err))
}

// errCompacted is what etcd's "required revision has been compacted" becomes.
func errCompacted(rev, compacted int64) error {
	return apierrors.NewResourceExpired(fmt.Sprintf(
		"The resourceVersion for the provided watch is too old: %d is older than the oldest kept, %d; list again to get a fresh resourceVersion", rev, compacted))
}

// The list errors carry kube-apiserver's exact messages: clients and the
// conformance suite match on them.
const (
	listExpired          = "The resourceVersion for the provided list is too old."
	continueExpired      = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter."
	inconsistentContinue = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list."
)

// errListCompacted is the 410 for a list at a compacted revision. A paged
// list gets a token to go on at the latest revision instead, as from etcd.
func errListCompacted(paging bool, continueKey, keyPrefix string) error {
	if !paging {
		return apierrors.NewResourceExpired(listExpired)
	}
	token, err := storage.EncodeContinue(continueKey, keyPrefix, -1)
	if err != nil {
		return apierrors.NewResourceExpired(continueExpired)
	}
	statusErr := apierrors.NewResourceExpired(inconsistentContinue)
	statusErr.ErrStatus.ListMeta.Continue = token
	return statusErr
}
