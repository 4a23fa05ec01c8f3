// The generators on an in-memory surface that uses every container construct: a value type with a list:obj field,
// a list:u64 field and a map field; a handle whose const getters return a map and a list:u64; a client method
// taking a map; a callback with a map and a list:u64. Checks the text each layer emits for them (the real surface
// only gets such members with the social SDK), and that the model rejects the constructs no layer supports.
import { describe, expect, it } from 'vitest';
import * as idl from '../idl/surface.mjs';
import { generate as cHeader } from '../tools/gen/c_header.mjs';
import { generate as capi } from '../tools/gen/capi.mjs';
import { generate as core } from '../tools/gen/core.mjs';
import { generate as cppWrapper } from '../tools/gen/cpp_wrapper.mjs';
import { generate as koffi } from '../tools/gen/koffi.mjs';
import { buildModel } from '../tools/gen/model.mjs';
import { generate as napi } from '../tools/gen/napi.mjs';
import { generate as typescript } from '../tools/gen/typescript.mjs';

type Idl = typeof idl;
type Generated = Array<{ path: string; content: string }>;

const probeCallback = {
  name: 'Client.ProbeCallback',
  doc: 'A probe finished.',
  params: [
    { name: 'metadata', type: 'map' },
    { name: 'ids', type: 'list:u64' },
  ],
};
const probeValue = {
  name: 'ProbeValue',
  kind: 'value',
  init: true,
  doc: 'A value with container fields.',
  fields: [
    { name: 'Buttons', type: 'list:obj:ActivityButton', doc: 'Buttons.' },
    { name: 'Ids', type: 'list:u64', doc: 'Ids.' },
    { name: 'Metadata', type: 'map', maxKeys: 25, maxKey: 256, maxValue: 4096, doc: 'Metadata.' },
  ],
};
const probeHandle = {
  name: 'ProbeHandle',
  kind: 'handle',
  header: 'probe/probe_handle.hpp',
  doc: 'A live view with container getters.',
  methods: [
    { name: 'Metadata', const: true, returns: 'map', doc: 'Metadata.' },
    { name: 'MemberIds', const: true, returns: 'list:u64', doc: 'Member ids.' },
  ],
};

/** The real surface plus the probes (the client gets one method taking a map). */
function probeSurface(): Idl {
  const types = idl.types.map((t) =>
    t.name !== 'Client'
      ? t
      : {
          ...t,
          methods: [
            ...(t.methods ?? []),
            {
              name: 'Probe',
              doc: 'Sends metadata.',
              params: [
                { name: 'metadata', type: 'map', maxKeys: 25, maxKey: 256, maxValue: 4096 },
                { name: 'cb', type: 'cb:Client.ProbeCallback' },
              ],
            },
          ],
        },
  );
  const client = types.findIndex((t) => t.name === 'Client');
  types.splice(client, 0, probeValue as (typeof types)[number], probeHandle as (typeof types)[number]);
  return { ...idl, types, callbacks: [...idl.callbacks, probeCallback] } as Idl;
}

function emitted(generate: (model: ReturnType<typeof buildModel>) => Generated, surface: Idl = probeSurface()): string {
  return generate(buildModel(surface))
    .map((f) => f.content)
    .join('\n');
}

describe('C header', () => {
  const h = emitted(cHeader);
  it('declares Svcpp_UInt64Span and its Drop always', () => {
    expect(h).toContain('typedef struct Svcpp_UInt64Span { uint64_t *ptr; size_t size; } Svcpp_UInt64Span;');
    expect(h).toContain('SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_UInt64Span_Drop(Svcpp_UInt64Span *span);');
    expect(emitted(cHeader, idl)).toContain('Svcpp_UInt64Span_Drop(Svcpp_UInt64Span *span);');
  });
  it('value fields: caller-owned span/map getters, borrowed by-value setters', () => {
    expect(h).toContain(
      'typedef struct Svcpp_ActivityButtonSpan { Svcpp_ActivityButton *ptr; size_t size; } Svcpp_ActivityButtonSpan;',
    );
    expect(h).toContain(
      'Svcpp_Errc SVCPP_CALL Svcpp_ProbeValue_Buttons(Svcpp_ProbeValue const *self, Svcpp_ActivityButtonSpan *out);',
    );
    expect(h).toContain(
      'Svcpp_Errc SVCPP_CALL Svcpp_ProbeValue_SetButtons(Svcpp_ProbeValue *self, Svcpp_ActivityButtonSpan value);',
    );
    expect(h).toContain(
      'Svcpp_Errc SVCPP_CALL Svcpp_ProbeValue_Ids(Svcpp_ProbeValue const *self, Svcpp_UInt64Span *out);',
    );
    expect(h).toContain(
      'Svcpp_Errc SVCPP_CALL Svcpp_ProbeValue_SetIds(Svcpp_ProbeValue *self, Svcpp_UInt64Span value);',
    );
    expect(h).toContain(
      'Svcpp_Errc SVCPP_CALL Svcpp_ProbeValue_Metadata(Svcpp_ProbeValue const *self, Svcpp_Properties *out);',
    );
    expect(h).toContain(
      'Svcpp_Errc SVCPP_CALL Svcpp_ProbeValue_SetMetadata(Svcpp_ProbeValue *self, Svcpp_Properties value);',
    );
  });
  it('handle getters, a map parameter and a callback with a map and ids', () => {
    expect(h).toContain(
      'Svcpp_Errc SVCPP_CALL Svcpp_ProbeHandle_Metadata(Svcpp_ProbeHandle const *self, Svcpp_Properties *out);',
    );
    expect(h).toContain(
      'Svcpp_Errc SVCPP_CALL Svcpp_ProbeHandle_MemberIds(Svcpp_ProbeHandle const *self, Svcpp_UInt64Span *out);',
    );
    expect(h).toContain(
      'Svcpp_Errc SVCPP_CALL Svcpp_Client_Probe(Svcpp_Client *self, Svcpp_Properties metadata, ' +
        'Svcpp_Client_ProbeCallback cb, Svcpp_FreeFn cbUserDataFree, void *cbUserData);',
    );
    expect(h).toContain(
      'typedef void (SVCPP_CALL *Svcpp_Client_ProbeCallback)' +
        '(Svcpp_Properties metadata, Svcpp_UInt64Span ids, void *userData);',
    );
  });
});

describe('core and C marshalling', () => {
  const c = emitted(core);
  const m = emitted(capi);
  it('core members and callback arguments', () => {
    expect(c).toContain(
      'struct ProbeValue {\n' +
        '    std::vector<ActivityButton> buttons;\n' +
        '    std::vector<uint64_t> ids;\n' +
        '    Properties metadata;\n',
    );
    expect(c).toContain(
      'using ClientProbeCallback = Callback<void(const Properties &, const std::vector<uint64_t> &)>;',
    );
  });
  it('inputs are validated and copied before the object is locked', () => {
    expect(m).toContain(
      'auto value_ = InSpan<core::ActivityButton>(value, "value");\n' +
        '        Locked<core::ProbeValue> obj(OpaqueOf(self), "self");',
    );
    expect(m).toContain('auto value_ = InU64Span(value, "value");');
    expect(m).toContain('auto value_ = InProperties(value, "value", MapLimits{25, 256, 4096});');
    expect(m).toContain('auto metadata_ = InProperties(metadata, "metadata", MapLimits{25, 256, 4096});');
  });
  it('outputs are caller-owned, callback arguments borrowed', () => {
    expect(m).toContain('OutSpan<core::ActivityButton>(obj->buttons, out, "out");');
    expect(m).toContain('OutProperties(obj->metadata, out, "out");');
    expect(m).toContain('OutProperties(obj->Metadata(), out, "out");');
    expect(m).toContain('OutU64Span(obj->MemberIds(), out, "out");');
    expect(m).toContain('[fn, userData](const core::Properties & metadata, const std::vector<uint64_t> & ids)');
    expect(m).toContain(
      'BorrowedProperties metadataMap(metadata);\n            fn(metadataMap.View(), BorrowU64Span(ids), userData);',
    );
    expect(m).toContain('DropU64Span(span);');
  });
});

describe('C++ wrapper', () => {
  const w = emitted(cppWrapper);
  it('std::vector and std::unordered_map members', () => {
    expect(w).toContain('std::vector<svcpp::ActivityButton> Buttons() const;');
    expect(w).toContain('void SetButtons(std::vector<svcpp::ActivityButton> const &value);');
    expect(w).toContain('std::vector<uint64_t> Ids() const;');
    expect(w).toContain('void SetMetadata(std::unordered_map<std::string, std::string> const &value);');
    expect(w).toContain('std::unordered_map<std::string, std::string> Metadata() const;');
    expect(w).toContain('std::vector<uint64_t> MemberIds() const;');
    expect(w).toContain(
      'using ProbeCallback = ' +
        'std::function<void(std::unordered_map<std::string, std::string> metadata, std::vector<uint64_t> ids)>;',
    );
  });
  it('marshals through the detail helpers', () => {
    expect(w).toContain(
      'std::vector<Svcpp_ActivityButton> value__c = detail::ElementHandles<Svcpp_ActivityButton>(value);',
    );
    expect(w).toContain(
      'Svcpp_ProbeValue_SetButtons(&instance_, ' +
        'Svcpp_ActivityButtonSpan{value__c.empty() ? nullptr : value__c.data(), value__c.size()})',
    );
    expect(w).toContain('detail::PropertiesView metadata__c(metadata);');
    expect(w).toContain('return detail::TakeProperties(out);');
    expect(w).toContain('return detail::TakeU64Span(out);');
    expect(w).toContain('detail::ToUnorderedMap(metadata), detail::ToU64Vector(ids)');
  });
});

describe('JavaScript layers', () => {
  const ts = emitted(typescript);
  const n = emitted(napi);
  const k = emitted(koffi);
  it('TypeScript: Record<string, string> and bigint[]', () => {
    expect(ts).toContain(
      "ProbeValue_SetButtons(self: NativeHandle<'ProbeValue'>, value: NativeHandle<'ActivityButton'>[]): void;",
    );
    expect(ts).toContain("ProbeValue_SetIds(self: NativeHandle<'ProbeValue'>, value: bigint[]): void;");
    expect(ts).toContain("ProbeValue_Metadata(self: NativeHandle<'ProbeValue'>): Record<string, string>;");
    expect(ts).toContain("ProbeHandle_MemberIds(self: NativeHandle<'ProbeHandle'>): bigint[];");
    expect(ts).toContain(
      "Client_Probe(self: NativeHandle<'Client'>, metadata: Record<string, string>, " +
        'cb: (metadata: Record<string, string>, ids: bigint[]) => void): void;',
    );
  });
  it('N-API converts both ways', () => {
    expect(n).toContain('PropertiesArg metadataMap(info[1]);');
    expect(n).toContain(
      'std::vector<Svcpp_ActivityButton> valueHandles = HandleArrayArg<Svcpp_ActivityButton>(env, info[1]);',
    );
    expect(n).toContain('SpanView<Svcpp_ActivityButtonSpan>(valueHandles)');
    expect(n).toContain('std::vector<uint64_t> valueIds = U64ArrayArg(info[1]);');
    expect(n).toContain('return TakeProperties(env, out);');
    expect(n).toContain('return TakeU64Span(env, out);');
    // The callback's arguments, converted into the trampoline's fixed array.
    expect(n).toContain('args[0] = BorrowProperties(env, metadata);\n    args[1] = BorrowU64Span(env, ids);');
  });
  it('koffi declares the input views and converts both ways', () => {
    // A handle is passed as the Buffer of its struct, declared void * (see tools/gen/koffi.mjs kParam).
    expect(k).toContain("'Svcpp_Errc Svcpp_Client_Probe(void *self, Svcpp_PropertiesIn metadata, ");
    expect(k).toContain("'Svcpp_Errc Svcpp_ProbeValue_SetIds(void *self, Svcpp_UInt64Span value)'");
    // The runtime's parts by job (bindings/koffi/runtime.ts): handles, marshal (values), delivery.
    expect(k).toContain("const valueC = handles.handleSpan('ActivityButton', value);");
    expect(k).toContain('const valueC = marshal.u64Span(value);');
    expect(k).toContain('const metadataC = marshal.properties(metadata);');
    expect(k).toContain('return marshal.takeProperties(out);');
    expect(k).toContain('return marshal.takeU64Span(out);');
    expect(k).toContain(
      '(metadata: PropertiesOut, ids: SpanOut) => ' +
        'delivery.deliver(cb, marshal.borrowProperties(metadata), marshal.borrowU64Span(ids))',
    );
  });
});

describe('model rejects what no layer supports', () => {
  const withValue = (fields: object[]) =>
    ({ ...idl, types: [{ name: 'Bad', kind: 'value', init: true, doc: '', fields }, ...idl.types] }) as Idl;
  const withClientMethod = (method: object) =>
    ({
      ...idl,
      types: idl.types.map((t) => (t.name === 'Client' ? { ...t, methods: [...(t.methods ?? []), method] } : t)),
    }) as Idl;
  it('optional lists and maps', () => {
    expect(() => buildModel(withValue([{ name: 'L', type: 'list:u64', optional: true }]))).toThrow(/never optional/);
    expect(() => buildModel(withValue([{ name: 'M', type: 'map', optional: true }]))).toThrow(/never optional/);
    expect(() =>
      buildModel(withClientMethod({ name: 'X', params: [{ name: 'm', type: 'map', optional: true }] })),
    ).toThrow(/never optional/);
    expect(() => buildModel(withClientMethod({ name: 'X', const: true, returns: 'map', optional: true }))).toThrow(
      /never optional/,
    );
  });
  it('span method parameters', () => {
    expect(() => buildModel(withClientMethod({ name: 'X', params: [{ name: 'ids', type: 'list:u64' }] }))).toThrow(
      /not method inputs/,
    );
  });
  it('list fields of types declared later, of handles, or on non-value types', () => {
    expect(() => buildModel(withValue([{ name: 'B', type: 'list:obj:ActivityButton' }]))).toThrow(
      /must be declared before Bad/,
    );
    const handleList = {
      ...idl,
      types: [
        ...idl.types,
        { name: 'Bad', kind: 'value', init: true, doc: '', fields: [{ name: 'U', type: 'list:obj:UserHandle' }] },
      ],
    } as Idl;
    expect(() => buildModel(handleList)).toThrow(/holds value objects/);
    const onHandle = {
      ...idl,
      types: [
        ...idl.types,
        { name: 'BadHandle', kind: 'handle', header: 'x.hpp', doc: '', fields: [{ name: 'M', type: 'map' }] },
      ],
    } as Idl;
    expect(() => buildModel(onHandle)).toThrow(/only on value types/);
  });
  it('unknown list element kinds', () => {
    expect(() => buildModel(withValue([{ name: 'S', type: 'list:string' }]))).toThrow(/unknown IDL type list:string/);
  });
});
