package storepatch

import (
	"context"
	"encoding/json"
	"fmt"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/registry/rest"
)

// Apply applies the patch data, of type pt, to the object name of the
// store, writing through updater (the store, or its status subresource).
// A resourceVersion in the patch is a precondition, as in the API.
func Apply(ctx context.Context, store rest.Storage, updater rest.Updater, name string, pt types.PatchType, data []byte) error {
	if pt != types.MergePatchType {
		return fmt.Errorf("patch type %s, want %s", pt, types.MergePatchType)
	}
	_, _, err := updater.Update(ctx, name, rest.DefaultUpdatedObjectInfo(nil, func(_ context.Context, _, existing runtime.Object) (runtime.Object, error) {
		original, err := json.Marshal(existing)
		if err != nil {
			return nil, err
		}
		patched, err := jsonpatch.MergePatch(original, data)
		if err != nil {
			return nil, err
		}
		obj := store.New()
		return obj, json.Unmarshal(patched, obj)
	}), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	return err
}
