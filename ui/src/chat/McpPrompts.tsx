// A new conversation's prompts from the connections (MCP servers' `prompts/list`, through
// `mcp_prompts`), listed after the skills' starters. Choosing one runs `prompts/get` and puts
// its text into the composer for the person to read, change and send — as Claude Desktop puts
// a chosen server prompt into the message being written; nothing is sent by choosing. A
// prompt with arguments asks for them first (required ones must be filled). Read again when
// the servers change in Settings → Connections.

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { Button, Field } from "../design";
import { recovered, report } from "../store";
import { onConnectionsChanged } from "../settings/connections/api";
import type { McpPromptView } from "../wire";

export function McpPrompts({ onFill, disabled }: { onFill: (text: string) => void; disabled: boolean }) {
  const { t } = useTranslation();
  const [prompts, setPrompts] = useState<McpPromptView[]>([]);
  const [open, setOpen] = useState<McpPromptView | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  useEffect(() => {
    let live = true;
    const load = () =>
      client.mcpPrompts().then(
        (l) => {
          if (!live) return;
          setPrompts(l.prompts);
          recovered("starters");
        },
        (e) => report("starters", e),
      );
    void load();
    // The chat stays mounted while Settings is open: read again when the servers change.
    const off = onConnectionsChanged(() => void load());
    return () => {
      live = false;
      off();
    };
  }, []);
  if (prompts.length === 0) return null;
  const fill = (p: McpPromptView, args: Record<string, string>) =>
    client.getMcpPrompt(p.server, p.name, args).then(
      (text) => {
        setOpen(null);
        recovered("starters");
        onFill(text);
      },
      (e) => report("starters", e),
    );
  const choose = (p: McpPromptView) => {
    if (p.arguments.length === 0) return void fill(p, {});
    setValues({});
    setOpen(p);
  };
  const missing = open?.arguments.some((a) => a.required && !(values[a.name] ?? "").trim()) ?? false;
  return (
    <div className="mcp-prompts" data-testid="mcp-prompts">
      <ul className="starter-list">
        {prompts.map((p) => (
          <li key={`${p.server}/${p.name}`}>
            <Button className="starter" onClick={() => choose(p)} disabled={disabled} data-testid="mcp-prompt" title={p.description ?? undefined}>
              <span className="starter-text">{p.title ?? p.name}</span>
              <span className="starter-skill muted small">{t("chat.promptFrom", { server: p.server })}</span>
            </Button>
          </li>
        ))}
      </ul>
      {open && (
        <form
          className="mcp-prompt-form"
          data-testid="mcp-prompt-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!missing) void fill(open, values);
          }}
        >
          {open.arguments.map((a) => (
            <Field key={a.name} label={a.required ? `${a.name} *` : a.name} hint={a.description ?? undefined}>
              <input
                data-testid={`mcp-prompt-arg-${a.name}`}
                value={values[a.name] ?? ""}
                required={a.required}
                onChange={(e) => setValues({ ...values, [a.name]: e.target.value })}
              />
            </Field>
          ))}
          <Button type="submit" variant="primary" disabled={missing} data-testid="mcp-prompt-fill">
            {t("chat.promptFill")}
          </Button>
          <Button type="button" onClick={() => setOpen(null)}>
            {t("chat.promptCancel")}
          </Button>
        </form>
      )}
    </div>
  );
}
