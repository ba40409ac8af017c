import { describe, expect, it } from 'vitest';
import { referencedVariables, renderHeaders } from '../../functions/chat/domain/header-templates';

describe('renderHeaders', () => {
  const vars = { crmToken: 'tok-123', tenant: 'acme', region_1: 'eu', 'dash-name': 'd' };

  it('replaces {{session.<name>}} with the session variable, in every header and every occurrence', () => {
    expect(
      renderHeaders(
        {
          Authorization: 'Bearer {{session.crmToken}}',
          'X-Tenant': '{{session.tenant}}',
          'X-Both': '{{session.tenant}}/{{session.region_1}}/{{ session.tenant }}',
          'X-Dash': '{{session.dash-name}}',
        },
        vars,
      ),
    ).toEqual({ Authorization: 'Bearer tok-123', 'X-Tenant': 'acme', 'X-Both': 'acme/eu/acme', 'X-Dash': 'd' });
  });

  it('keeps static headers as they are, and leaves text that is not a session placeholder alone', () => {
    expect(renderHeaders({ 'X-Static': 'fixed', 'X-Other': '{{env.HOME}} {{session}}' }, {})).toEqual({
      'X-Static': 'fixed',
      'X-Other': '{{env.HOME}} {{session}}',
    });
  });

  it('drops a header whose template names a variable the session does not have, keeping the others', () => {
    expect(
      renderHeaders(
        { Authorization: 'Bearer {{session.crmToken}}', 'X-Tenant': '{{session.missing}}', 'X-Half': '{{session.tenant}}-{{session.missing}}' },
        vars,
      ),
    ).toEqual({
      Authorization: 'Bearer tok-123',
    });
  });

  it('renders an empty variable as empty (it is present)', () => {
    expect(renderHeaders({ 'X-Tenant': 't={{session.tenant}}' }, { tenant: '' })).toEqual({ 'X-Tenant': 't=' });
  });

  it('drops a header whose rendered value carries CR, LF or NUL (no header injection), keeping the others', () => {
    for (const value of ['a\r\nX-Admin: true', 'a\nb', 'a\rb', 'a\u0000b']) {
      expect(
        renderHeaders({ Authorization: 'Bearer {{session.crmToken}}', 'X-Tenant': '{{session.tenant}}' }, { crmToken: 'tok', tenant: value }),
        JSON.stringify(value),
      ).toEqual({
        Authorization: 'Bearer tok',
      });
    }
  });

  it('drops a header whose rendered value is not a valid HTTP header value (characters above U+00FF), keeping the others', () => {
    // fetch refuses such a value outright ("Cannot convert argument to a ByteString"): sending it would fail the whole tool call.
    for (const value of ['日本', 'smile 😀', 'a\u0100']) {
      const rendered = renderHeaders({ Authorization: 'Bearer {{session.crmToken}}', 'X-Tenant': '{{session.tenant}}' }, { crmToken: 'tok', tenant: value });
      expect(rendered, value).toEqual({ Authorization: 'Bearer tok' });
      expect(() => new Headers(rendered)).not.toThrow();
    }
    // Latin-1 is a valid header value and is kept.
    expect(renderHeaders({ 'X-Tenant': '{{session.tenant}}' }, { tenant: 'Zoë' })).toEqual({ 'X-Tenant': 'Zoë' });
  });

  it('does not expand placeholders that arrive inside a variable value', () => {
    expect(renderHeaders({ 'X-Tenant': '{{session.tenant}}' }, { tenant: '{{session.crmToken}}', crmToken: 'secret' })).toEqual({
      'X-Tenant': '{{session.crmToken}}',
    });
  });

  it('renders nothing from no templates', () => {
    expect(renderHeaders({}, vars)).toEqual({});
  });
});

describe('referencedVariables', () => {
  it('lists the variable names the templates refer to, once each', () => {
    expect([...referencedVariables({ A: 'Bearer {{session.crmToken}}', B: '{{session.tenant}}-{{ session.crmToken }}', C: 'static' })].sort()).toEqual([
      'crmToken',
      'tenant',
    ]);
  });
});
