/** Text for `halyard api --help` (endpoints by area) and `halyard api <endpoint> --describe`. */
import { AREAS, endpointsByArea } from '../exchange/endpoints/index.ts';
import type { AnyEndpoint, WeightSpec } from '../exchange/endpoints/types.ts';
import type { ParamShape } from '../exchange/params/dsl.ts';

export function endpointListing(): string {
  const lines: string[] = ['Endpoints by area (use the id, e.g. `halyard api market.depth symbol=BTCPHP`):'];
  for (const area of AREAS) {
    lines.push('', `${area}:`);
    for (const def of Object.values(endpointsByArea[area]) as AnyEndpoint[]) {
      lines.push(`  ${def.id.padEnd(40)} ${def.method.padEnd(6)} ${def.path}`);
    }
  }
  return lines.join('\n');
}

function weightText(weight: WeightSpec): string {
  if (typeof weight === 'number') return `${weight} (IP)`;
  if (typeof weight === 'function') return 'depends on the parameters';
  return weight.map((c) => `${c.weight} (${c.pool})`).join(' + ');
}

export function describeEndpoint(def: AnyEndpoint): string {
  const lines = [
    `${def.id}: ${def.summary}`,
    `  ${def.method} ${def.path}   (spec ${def.spec})`,
    `  security ${def.security}, weight ${weightText(def.weight)}${def.countsAsOrder ? ', counts as an order' : ''}, ` +
      `${def.envelope === 'status' ? 'status envelope, ' : ''}params in ${def.method === 'GET' ? 'query' : def.encoding}, ` +
      `${def.idempotent ? 'idempotent' : 'not idempotent (never resent)'}`,
    '  parameters:',
  ];
  const params = Object.entries(def.params as ParamShape);
  if (params.length === 0) lines.push('    (none)');
  for (const [name, spec] of params) {
    const o = spec.options;
    const extra = [
      spec.values ? `one of ${spec.values.join('|')}` : '',
      o.min !== undefined ? `min ${o.min}` : '',
      o.max !== undefined ? `max ${o.max}` : '',
      o.maxLength !== undefined ? `max length ${o.maxLength}` : '',
      o.defaultValue !== undefined ? `default ${JSON.stringify(o.defaultValue)}` : '',
      o.invalidMeans !== undefined ? `an invalid value means ${JSON.stringify(o.invalidMeans)}` : '',
      o.doc ?? '',
    ].filter(Boolean);
    lines.push(`    ${name.padEnd(26)} ${spec.kind.padEnd(8)} ${spec.required ? 'req' : 'opt'}  ${extra.join('; ')}`);
  }
  for (const rule of def.rules ?? []) {
    const text =
      rule.kind === 'check'
        ? rule.description
        : rule.kind === 'maxSpan'
          ? `${rule.start}..${rule.end} under ${rule.maxSpanMs / 86_400_000} days${rule.when ? ` when ${rule.when} is sent` : ''}`
          : rule.kind === 'requires'
            ? `${rule.param} requires ${rule.requires}`
            : `${rule.kind} of ${rule.params.join(', ')}`;
    lines.push(`  rule: ${text}`);
  }
  if (def.recvWindow?.required === true) lines.push('  recvWindow: required (the client sends it on every signed call)');
  if (def.recvWindow?.max !== undefined) lines.push(`  recvWindow: at most ${def.recvWindow.max} (the client caps its window)`);
  lines.push('  example parameters:', `    ${JSON.stringify(def.example.params)}`);
  return lines.join('\n');
}
