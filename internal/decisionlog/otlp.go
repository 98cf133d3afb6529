package decisionlog

import (
	"context"
	"encoding/json"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
)

// OTLPSink sends events as OpenTelemetry log records over OTLP/HTTP
// (protobuf) with the OpenTelemetry SDK's exporter. Each record's body is
// the event as JSON; its attributes carry the fields a collector
// filters on (cmdguard.verdict, cmdguard.rule, …).
type OTLPSink struct {
	URL     string // the logs endpoint: http://host:4318/v1/logs
	Headers map[string]string
	Version string

	once     sync.Once
	err      error
	exporter *otlploghttp.Exporter
	provider *sdklog.LoggerProvider
	logger   otellog.Logger
	col      *collect
}

// collect is a Processor that keeps the records emitted during one Write,
// which then exports them as one batch on the sink's own goroutine.
type collect struct{ recs []sdklog.Record }

func (c *collect) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (c *collect) OnEmit(_ context.Context, r *sdklog.Record) error {
	c.recs = append(c.recs, r.Clone())
	return nil
}
func (c *collect) Shutdown(context.Context) error   { return nil }
func (c *collect) ForceFlush(context.Context) error { return nil }

// Name returns "otlp:" and the URL.
func (s *OTLPSink) Name() string { return "otlp:" + s.URL }

func (s *OTLPSink) init(ctx context.Context) error {
	s.once.Do(func() {
		opts := []otlploghttp.Option{otlploghttp.WithEndpointURL(s.URL), otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false})}
		if len(s.Headers) > 0 {
			opts = append(opts, otlploghttp.WithHeaders(s.Headers))
		}
		s.exporter, s.err = otlploghttp.New(ctx, opts...)
		if s.err != nil {
			return
		}
		s.col = &collect{}
		res := resource.NewWithAttributes("", attribute.String("service.name", "cmdguard"), attribute.String("service.version", s.Version))
		s.provider = sdklog.NewLoggerProvider(sdklog.WithProcessor(s.col), sdklog.WithResource(res))
		s.logger = s.provider.Logger("github.com/cmdguard/cmdguard/decisionlog")
	})
	return s.err
}

// Write exports batch as one OTLP request.
func (s *OTLPSink) Write(ctx context.Context, batch []Event) error {
	if err := s.init(ctx); err != nil {
		return err
	}
	s.col.recs = s.col.recs[:0]
	for i := range batch {
		e := &batch[i]
		body, err := json.Marshal(e)
		if err != nil {
			return err
		}
		var r otellog.Record
		r.SetTimestamp(e.Time)
		r.SetEventName("cmdguard.decision")
		r.SetSeverity(severity(e.Verdict))
		r.SetSeverityText(e.Verdict)
		r.SetBody(attribute.StringValue(string(body)))
		attrs := []attribute.KeyValue{
			attribute.String("cmdguard.decision_id", e.ID),
			attribute.String("cmdguard.verdict", e.Verdict),
			attribute.String("cmdguard.decided_by", e.DecidedBy),
			attribute.String("cmdguard.command", e.Command),
			attribute.String("cmdguard.cwd", e.Cwd),
			attribute.String("host.name", e.Host),
		}
		if e.Adapter != "" {
			attrs = append(attrs, attribute.String("cmdguard.adapter", e.Adapter))
		}
		if e.Agent != "" {
			attrs = append(attrs, attribute.String("cmdguard.agent", e.Agent))
		}
		if len(e.Reasons) > 0 {
			attrs = append(attrs, attribute.String("cmdguard.rule", e.Reasons[0].Rule), attribute.String("cmdguard.source", e.Reasons[0].Source))
		}
		if e.Run != nil && e.Run.Exit != nil {
			attrs = append(attrs, attribute.Int("cmdguard.exit", *e.Run.Exit))
		}
		r.AddAttributes(attrs...)
		s.logger.Emit(ctx, r)
	}
	return s.exporter.Export(ctx, s.col.recs)
}

func severity(verdict string) otellog.Severity {
	switch verdict {
	case "allow":
		return otellog.SeverityInfo
	case "ask":
		return otellog.SeverityWarn
	}
	return otellog.SeverityError
}

// Close shuts the exporter down.
func (s *OTLPSink) Close(ctx context.Context) error {
	if s.exporter == nil {
		return nil
	}
	s.provider.Shutdown(ctx)
	return s.exporter.Shutdown(ctx)
}
