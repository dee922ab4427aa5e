// The Node.js peer of microhttp-echo for the load benchmark: the plain `http` module, no packages.
// GET /events is an event stream; POST /publish sends its body to every stream as one event;
// GET /<file> serves a static file from --public (read once, kept in memory, like MicroHTTP's cache).
"use strict";
const http = require("http");
const fs = require("fs");
const path = require("path");

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : fallback;
};
const port = Number(option("--port", "8082"));
const root = path.resolve(option("--public", "Public"));
const streams = new Set();
const files = new Map();

function serveFile(request, response) {
  const name = path.normalize(decodeURIComponent(request.url.split("?")[0])).replace(/^(\.\.[/\\])+/, "");
  const full = path.join(root, name === "/" ? "index.html" : name);
  if (!full.startsWith(root + path.sep)) {
    response.writeHead(403, { "Content-Length": 0 }).end();
    return;
  }
  let body = files.get(full);
  if (body === undefined) {
    try {
      body = fs.readFileSync(full);
    } catch {
      const missing = '{"error":{"code":"not_found"}}';
      response.writeHead(404, { "Content-Type": "application/json", "Content-Length": missing.length }).end(missing);
      return;
    }
    files.set(full, body);
  }
  const type = full.endsWith(".html") ? "text/html; charset=utf-8" : full.endsWith(".css") ? "text/css; charset=utf-8"
    : full.endsWith(".js") ? "text/javascript; charset=utf-8" : "application/octet-stream";
  response.writeHead(200, { "Content-Type": type, "Content-Length": body.length, "Cache-Control": "no-cache" });
  response.end(body);
}

const server = http.createServer((request, response) => {
  if (request.method === "GET" && request.url === "/events") {
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no" });
    response.write("retry: 2000\n\n");
    streams.add(response);
    request.on("close", () => streams.delete(response));
  } else if (request.method === "POST" && request.url === "/publish") {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const frame = `data: ${Buffer.concat(chunks).toString()}\n\n`;
      for (const stream of streams) stream.write(frame);
      const body = `{"streams":${streams.size}}`;
      response.writeHead(202, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) }).end(body);
    });
  } else if (request.method === "GET") {
    serveFile(request, response);
  } else {
    response.writeHead(405, { "Content-Length": 0 }).end();
  }
});
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;
server.requestTimeout = 0; // event streams are long-lived
server.listen(port, "127.0.0.1", () => console.log(`node-echo listening on http://127.0.0.1:${port}/`));
process.on("SIGTERM", () => process.exit(0));
