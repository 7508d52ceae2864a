package sqlstorage

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Span attributes beyond OpenTelemetry's database conventions.
const (
	attrResource  = attribute.Key("canopy.resource")
	attrKey       = attribute.Key("canopy.key")
	attrKeyPrefix = attribute.Key("canopy.key_prefix")
	attrRevision  = attribute.Key("canopy.revision")
	attrRows      = attribute.Key("canopy.rows")
	attrBatch     = attribute.Key("db.operation.batch.size")
)

// noSpan is the span of a statement whose request is not traced: it records
// nothing and ending it does nothing.
var noSpan = trace.SpanFromContext(context.Background())

// startSQL counts one statement this store runs for the request in ctx
// and starts its span, as a child of the request's span. Statements of a request that is
// not traced, and those of the background loops, which serve no request,
// get noSpan: with tracing off nothing is built or allocated.
func (s *Store) startSQL(ctx context.Context, operation string, key attribute.KeyValue) trace.Span {
	statements.WithLabelValues(operation, s.resource).Inc()
	if !trace.SpanFromContext(ctx).IsRecording() {
		return noSpan
	}
	attrs := []attribute.KeyValue{s.b.system, attribute.String("db.operation", operation), attrResource.String(s.groupResource.String())}
	if key.Valid() {
		attrs = append(attrs, key)
	}
	_, span := s.b.tracer.Start(ctx, "sql."+operation, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return span
}

// endSQL ends a statement's span with the rows it read or wrote, when
// rows >= 0, the revision it read at or wrote, when rev > 0, and its error.
func endSQL(span trace.Span, rows int, rev int64, err error) {
	if !span.IsRecording() {
		return
	}
	if rows >= 0 {
		span.SetAttributes(attrRows.Int(rows))
	}
	if rev > 0 {
		span.SetAttributes(attrRevision.Int64(rev))
	}
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// write queues o for the writer on behalf of the request in ctx. Its span,
// sql.insert, sql.update or sql.delete, lasts until the commit that decides
// the write lands, so the request's trace shows the time spent waiting for
// the group commit.
func (s *Store) write(ctx context.Context, o *op) error {
	operation := "update"
	switch {
	case o.expect == 0:
		operation = "insert"
	case o.value == nil:
		operation = "delete"
	}
	span := s.startSQL(ctx, operation, attrKey.String(o.key))
	o.span = span.SpanContext()
	err := s.b.submit(ctx, o)
	rows := 0
	if o.applied {
		rows = 1
	}
	endSQL(span, rows, o.rev, err)
	return err
}

// startCommit starts the span of one group commit when a traced request
// queued a write in it. The writer's goroutine serves many requests at
// once: the span is a child of the first traced write's span, so that it
// shows in that request's trace, and links to the other traced writes.
// The writer starts it once the batch is complete, which is only known
// after the transaction began: with trace.WithTimestamp, from then.
func (b *Backend) startCommit(batch []*op, opts ...trace.SpanStartOption) trace.Span {
	var parent trace.SpanContext
	var links []trace.Link
	for _, o := range batch {
		switch {
		case !o.span.IsValid():
		case !parent.IsValid():
			parent = o.span
		default:
			links = append(links, trace.Link{SpanContext: o.span})
		}
	}
	if !parent.IsValid() {
		return noSpan
	}
	opts = append(opts, trace.WithSpanKind(trace.SpanKindClient), trace.WithLinks(links...),
		trace.WithAttributes(b.system, attribute.String("db.operation", "commit"), attrBatch.Int(len(batch))))
	_, span := b.tracer.Start(trace.ContextWithSpanContext(context.Background(), parent), "sql.commit", opts...)
	return span
}

// endCommit ends a commit's span with the writes it applied and the first
// error any of them got.
func endCommit(span trace.Span, batch []*op) {
	if !span.IsRecording() {
		return
	}
	applied := 0
	var err error
	for _, o := range batch {
		if o.applied {
			applied++
		}
		if err == nil {
			err = o.err
		}
	}
	endSQL(span, applied, 0, err)
}

// readRange is the backend's range read as a statement of the request in
// ctx.
func (s *Store) readRange(ctx context.Context, operation string, key attribute.KeyValue, r keyRange, atRev int64, limit int) (*listing, error) {
	span := s.startSQL(ctx, operation, key)
	l, err := s.b.readRange(ctx, r, atRev, limit)
	if err != nil {
		endSQL(span, -1, 0, err)
		return nil, err
	}
	endSQL(span, len(l.kvs), l.rev, nil)
	return l, nil
}

// current is the backend's read of key's current version as a statement of
// the request in ctx.
func (s *Store) current(ctx context.Context, key string) (*kvRecord, error) {
	span := s.startSQL(ctx, "get", attrKey.String(key))
	rec, err := s.b.current(ctx, key)
	rows, rev := 0, int64(0)
	if rec != nil {
		rows, rev = 1, rec.modRev
	}
	endSQL(span, rows, rev, err)
	return rec, err
}
