package customresource

import (
	"fmt"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/cbor"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
	"k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"

	"github.com/canopy-dev/canopy/pkg/boundedencoding"
)

// What follows is upstream's serialization of custom resources
// (apiextensions-apiserver's customresource_handler.go), which it does
// not export: decoding coerces an object to its schema and defaults it,
// and encoding converts it to the version asked for.

// schemas are a definition's structural schemas by version, for the
// objects of its group and kind.
type schemas struct {
	byVersion             map[string]*structuralschema.Structural
	gk                    schema.GroupKind
	preserveUnknownFields bool
}

// scheme knows what the handlers send besides custom resources: statuses
// and watch events, which are not converted.
var scheme = newScheme()

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	v1 := schema.GroupVersion{Version: "v1"}
	metav1.AddToGroupVersion(s, v1)
	s.AddUnversionedTypes(v1, &metav1.Status{}, &metav1.WatchEvent{}, &metav1.APIVersions{}, &metav1.APIGroupList{}, &metav1.APIGroup{}, &metav1.APIResourceList{})
	return s
}

// serializer negotiates the media types of one definition's objects. Its
// converter converts what it sends to the version asked for.
type serializer struct {
	typer      runtime.ObjectTyper
	creator    runtime.ObjectCreater
	converter  runtime.ObjectConvertor
	schemas    schemas
	mediaTypes []runtime.SerializerInfo
}

func newSerializer(typer runtime.ObjectTyper, converter runtime.ObjectConvertor, s schemas) serializer {
	creator := unstructuredCreator{}
	jsonOf := func(o json.SerializerOptions) *json.Serializer {
		return json.NewSerializerWithOptions(json.DefaultMetaFactory, creator, typer, o)
	}
	mediaTypes := []runtime.SerializerInfo{
		{
			MediaType: runtime.ContentTypeJSON, MediaTypeType: "application", MediaTypeSubType: "json", EncodesAsText: true,
			Serializer:       jsonOf(json.SerializerOptions{StreamingCollectionsEncoding: true}),
			PrettySerializer: jsonOf(json.SerializerOptions{Pretty: true}),
			StrictSerializer: jsonOf(json.SerializerOptions{Strict: true, StreamingCollectionsEncoding: true}),
			StreamSerializer: &runtime.StreamSerializerInfo{EncodesAsText: true, Serializer: jsonOf(json.SerializerOptions{}), Framer: json.Framer},
		},
		{
			MediaType: runtime.ContentTypeYAML, MediaTypeType: "application", MediaTypeSubType: "yaml", EncodesAsText: true,
			Serializer:       jsonOf(json.SerializerOptions{Yaml: true}),
			StrictSerializer: jsonOf(json.SerializerOptions{Yaml: true, Strict: true}),
		},
		// Custom resources have no protobuf form, but the Tables and
		// PartialObjectMetadata made of them do.
		{
			MediaType: runtime.ContentTypeProtobuf, MediaTypeType: "application", MediaTypeSubType: "vnd.kubernetes.protobuf",
			Serializer:       protobuf.NewSerializerWithOptions(creator, typer, protobuf.SerializerOptions{StreamingCollectionsEncoding: true}),
			StreamSerializer: &runtime.StreamSerializerInfo{Serializer: protobuf.NewRawSerializer(creator, typer), Framer: protobuf.LengthDelimitedFramer},
		},
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.CBORServingAndStorage) {
		mediaTypes = append(mediaTypes, cbor.NewSerializerInfo(creator, typer))
	}
	return serializer{typer: typer, creator: creator, converter: converter, schemas: s, mediaTypes: boundedencoding.MediaTypes(mediaTypes)}
}

func (s serializer) SupportedMediaTypes() []runtime.SerializerInfo { return s.mediaTypes }

// standard are the media types but protobuf, which clients may send
// objects in.
func (s serializer) standard() []runtime.SerializerInfo {
	var out []runtime.SerializerInfo
	for _, m := range s.mediaTypes {
		if m.MediaType != runtime.ContentTypeProtobuf {
			out = append(out, m)
		}
	}
	return out
}

func (s serializer) EncoderForVersion(encoder runtime.Encoder, gv runtime.GroupVersioner) runtime.Encoder {
	return versioning.NewCodec(encoder, nil, s.converter, scheme, scheme, scheme, gv, nil, "crdNegotiatedSerializer")
}

func (s serializer) DecoderToVersion(decoder runtime.Decoder, gv runtime.GroupVersioner) runtime.Decoder {
	strict := false
	if j, ok := decoder.(*json.Serializer); ok {
		strict = j.IsStrict()
	}
	d := coercingDecoder{delegate: decoder, coercer: coercer{schemas: s.schemas, returnUnknownFieldPaths: strict}}
	return versioning.NewCodec(nil, d, runtime.UnsafeObjectConvertor(scheme), scheme, scheme,
		defaulter{delegate: scheme, schemas: s.schemas}, nil, gv, "unstructuredNegotiatedSerializer")
}

// typer types custom resources by their own apiVersion and kind, and the
// options objects of a version by parameters.
type typer struct {
	parameters   runtime.ObjectTyper
	unstructured runtime.ObjectTyper
}

func newTyper(parameters runtime.ObjectTyper) typer {
	return typer{parameters: parameters, unstructured: crdserverscheme.NewUnstructuredObjectTyper()}
}

func (t typer) ObjectKinds(obj runtime.Object) ([]schema.GroupVersionKind, bool, error) {
	if _, ok := obj.(runtime.Unstructured); ok {
		return t.unstructured.ObjectKinds(obj)
	}
	return t.parameters.ObjectKinds(obj)
}

func (t typer) Recognizes(gvk schema.GroupVersionKind) bool {
	return t.parameters.Recognizes(gvk) || t.unstructured.Recognizes(gvk)
}

type unstructuredCreator struct{}

func (unstructuredCreator) New(kind schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kind)
	return u, nil
}

// defaulter applies the defaults of the schema of an object's version to
// the definition's objects, and delegate's to anything else.
type defaulter struct {
	delegate runtime.ObjectDefaulter
	schemas  schemas
}

func (d defaulter) Default(in runtime.Object) {
	u, ok := in.(runtime.Unstructured)
	if !ok || u.GetObjectKind().GroupVersionKind().GroupKind() != d.schemas.gk {
		d.delegate.Default(in)
		return
	}
	structuraldefaulting.Default(u.UnstructuredContent(), d.schemas.byVersion[u.GetObjectKind().GroupVersionKind().Version])
}

// coercingDecoder coerces what delegate decodes to its schema, and with
// returnUnknownFieldPaths reports what it dropped as a strict decoding
// error, for fieldValidation=Strict and Warn.
type coercingDecoder struct {
	delegate runtime.Decoder
	coercer  coercer
}

func (d coercingDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	var strictErrs []error
	obj, gvk, err := d.delegate.Decode(data, defaults, into)
	if err != nil {
		strictErr, ok := runtime.AsStrictDecodingError(err)
		if !ok || obj == nil {
			return nil, gvk, err
		}
		strictErrs = strictErr.Errors()
	}
	var unknown []string
	if u, ok := obj.(*unstructured.Unstructured); ok {
		if unknown, err = d.coercer.apply(u); err != nil {
			return nil, gvk, err
		}
	}
	if d.coercer.returnUnknownFieldPaths && (len(strictErrs) > 0 || len(unknown) > 0) {
		for _, path := range unknown {
			strictErrs = append(strictErrs, fmt.Errorf(`unknown field "%s"`, path))
		}
		return obj, gvk, runtime.NewStrictDecodingError(strictErrs)
	}
	return obj, gvk, nil
}

// coercer does to an unstructured object what decoding into a Go struct
// does to a built-in one: it keeps only the ObjectMeta fields there are,
// of the right types, prunes what the schema does not know, and drops
// nulls where they are not allowed and no default replaces them.
type coercer struct {
	schemas                 schemas
	returnUnknownFieldPaths bool
}

// apply coerces u in place and returns the paths of the unknown fields it
// dropped, when asked to.
func (c coercer) apply(u *unstructured.Unstructured) ([]string, error) {
	kind, foundKind, err := unstructured.NestedString(u.Object, "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.Object, "apiVersion")
	if err != nil {
		return nil, err
	}
	objectMeta, foundObjectMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{
		ReturnUnknownFieldPaths: c.returnUnknownFieldPaths,
	})
	if err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	// Options objects decode here too, and are left as they are.
	if gv.Group == c.schemas.gk.Group && kind == c.schemas.gk.Kind {
		s := c.schemas.byVersion[gv.Version]
		if !c.schemas.preserveUnknownFields {
			unknown = append(unknown, structuralpruning.PruneWithOptions(u.Object, s, true,
				structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: c.returnUnknownFieldPaths})...)
			structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
		}
		fieldErr, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, s, false, schemaobjectmeta.CoerceOptions{
			ReturnUnknownFieldPaths: c.returnUnknownFieldPaths,
		})
		if fieldErr != nil {
			return nil, fieldErr
		}
		unknown = append(unknown, paths...)
	}
	// The metadata comes back as decoded above, and the type meta, which
	// schemas need not declare.
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, objectMeta); err != nil {
			return nil, err
		}
	}
	return unknown, nil
}

// coercingConverter converts as its delegate does, and coerces the objects
// whose version changed to the schema of their new one, as upstream
// prunes objects converted on their way to and from storage.
type coercingConverter struct {
	runtime.ObjectConvertor
	coercer coercer
}

func (c coercingConverter) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	out, err := c.ObjectConvertor.ConvertToVersion(in, gv)
	if err != nil {
		return nil, err
	}
	switch o := out.(type) {
	case *unstructured.Unstructured:
		if in.GetObjectKind().GroupVersionKind() != o.GroupVersionKind() {
			if _, err := c.coercer.apply(o); err != nil {
				return nil, err
			}
		}
	case *unstructured.UnstructuredList:
		was, ok := in.(*unstructured.UnstructuredList)
		for i := range o.Items {
			if ok && i < len(was.Items) && was.Items[i].GetAPIVersion() == o.Items[i].GetAPIVersion() {
				continue
			}
			if _, err := c.coercer.apply(&o.Items[i]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
