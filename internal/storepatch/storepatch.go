package storepatch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// Apply applies the patch data, of type pt (a JSON merge patch or a
// JSON patch), to the object name of the store, writing through updater
// (the store, or its status subresource). A resourceVersion in the patch
// is a precondition, as in the API; a JSON patch that does not apply,
// one of its tests failing, is answered as the API does: 422, with no
// more said. The patch applies to the object as the API has a client see
// it, without the hub's bookkeeping (registry.ClientUpdate).
func Apply(ctx context.Context, store rest.Storage, updater rest.Updater, name string, pt types.PatchType, data []byte) error {
	apply := func(original []byte) ([]byte, error) { return jsonpatch.MergePatch(original, data) }
	switch pt {
	case types.MergePatchType:
	case types.JSONPatchType:
		ops, err := jsonpatch.DecodePatch(data)
		if err != nil {
			return apierrors.NewBadRequest(err.Error())
		}
		apply = func(original []byte) ([]byte, error) {
			patched, err := ops.Apply(original)
			if err != nil {
				return nil, apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
			}
			return patched, nil
		}
	default:
		return fmt.Errorf("patch type %s, want %s or %s", pt, types.MergePatchType, types.JSONPatchType)
	}
	_, _, err := updater.Update(ctx, name, registry.ClientUpdate(rest.DefaultUpdatedObjectInfo(nil, func(_ context.Context, _, existing runtime.Object) (runtime.Object, error) {
		original, err := json.Marshal(existing)
		if err != nil {
			return nil, err
		}
		patched, err := apply(original)
		if err != nil {
			return nil, err
		}
		obj := store.New()
		return obj, json.Unmarshal(patched, obj)
	})), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	return err
}
