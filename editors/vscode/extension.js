// The jibunki extension: the content language's grammar (package.json) and a client that
// starts `jibunki lsp` over stdio for every content file (vscode-languageclient).
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace
    .getConfiguration("jibunki")
    .get("server.command", ["jibunki", "lsp"]);
  // Over stdio the client adds --stdio and --clientProcessId=N to the command: jibunki lsp
  // takes both (tests/test_lsp_protocol.py).
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    "jibunki",
    "jibunki",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "jibunki" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
