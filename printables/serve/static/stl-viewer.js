// A small self-contained STL viewer: binary (or ASCII) STL -> WebGL, flat shaded, drag to turn,
// wheel to zoom. No library, no network beyond the STL itself, so it works offline.
"use strict";

window.StlViewer = (function () {
  function parseStl(buffer) {
    const view = new DataView(buffer);
    if (buffer.byteLength >= 84) {
      const count = view.getUint32(80, true);
      if (84 + count * 50 === buffer.byteLength) {
        const positions = new Float32Array(count * 9);
        for (let i = 0; i < count; i++) {
          const base = 84 + i * 50 + 12; // skip the stored normal: recomputed from the vertices
          for (let k = 0; k < 9; k++) positions[i * 9 + k] = view.getFloat32(base + k * 4, true);
        }
        return positions;
      }
    }
    const text = new TextDecoder().decode(buffer);
    const numbers = [];
    const re = /vertex\s+(\S+)\s+(\S+)\s+(\S+)/g;
    let m;
    while ((m = re.exec(text))) numbers.push(+m[1], +m[2], +m[3]);
    if (numbers.length === 0 || numbers.length % 9 !== 0) throw new Error("not an STL file");
    return new Float32Array(numbers);
  }

  function flatNormals(positions) {
    const normals = new Float32Array(positions.length);
    for (let i = 0; i < positions.length; i += 9) {
      const ax = positions[i + 3] - positions[i], ay = positions[i + 4] - positions[i + 1], az = positions[i + 5] - positions[i + 2];
      const bx = positions[i + 6] - positions[i], by = positions[i + 7] - positions[i + 1], bz = positions[i + 8] - positions[i + 2];
      let nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
      const len = Math.hypot(nx, ny, nz) || 1;
      nx /= len; ny /= len; nz /= len;
      for (let v = 0; v < 3; v++) {
        normals[i + v * 3] = nx; normals[i + v * 3 + 1] = ny; normals[i + v * 3 + 2] = nz;
      }
    }
    return normals;
  }

  function bounds(positions) {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < positions.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = positions[i + k];
        if (v < lo[k]) lo[k] = v;
        if (v > hi[k]) hi[k] = v;
      }
    }
    return { lo, hi };
  }

  const VERTEX = `
    attribute vec3 position; attribute vec3 normal;
    uniform mat4 view; uniform mat4 projection; varying vec3 vNormal;
    void main() { vNormal = mat3(view) * normal; gl_Position = projection * view * vec4(position, 1.0); }`;
  const FRAGMENT = `
    precision mediump float; varying vec3 vNormal; uniform vec3 colour;
    void main() {
      vec3 n = normalize(vNormal); if (!gl_FrontFacing) n = -n;
      float light = 0.35 + 0.65 * max(dot(n, normalize(vec3(0.4, 0.5, 1.0))), 0.0);
      gl_FragColor = vec4(colour * light, 1.0);
    }`;

  function compile(gl, type, source) {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader));
    return shader;
  }

  // Column-major 4x4 matrices, as WebGL wants them.
  function multiply(a, b) {
    const out = new Float32Array(16);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      out[c * 4 + r] = s;
    }
    return out;
  }
  function rotateX(t) { const c = Math.cos(t), s = Math.sin(t); return new Float32Array([1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]); }
  function rotateZ(t) { const c = Math.cos(t), s = Math.sin(t); return new Float32Array([c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]); }
  function translate(x, y, z) { return new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]); }
  function ortho(halfW, halfH, depth) {
    return new Float32Array([1 / halfW, 0, 0, 0, 0, 1 / halfH, 0, 0, 0, 0, -1 / depth, 0, 0, 0, 0, 1]);
  }

  class Viewer {
    constructor(canvas) {
      this.canvas = canvas;
      this.azimuth = -0.6; this.elevation = 0.9; this.zoom = 1;
      this.gl = canvas.getContext("webgl", { antialias: true }) || canvas.getContext("experimental-webgl");
      canvas.dataset.webgl = this.gl ? "yes" : "no";
      if (this.gl) this.setup();
      this.bindInput();
    }

    setup() {
      const gl = this.gl;
      const program = gl.createProgram();
      gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX));
      gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
      gl.linkProgram(program);
      gl.useProgram(program);
      this.program = program;
      this.positionBuffer = gl.createBuffer();
      this.normalBuffer = gl.createBuffer();
      gl.enable(gl.DEPTH_TEST);
    }

    bindInput() {
      let last = null;
      this.canvas.addEventListener("pointerdown", (e) => { last = [e.clientX, e.clientY]; this.canvas.setPointerCapture(e.pointerId); });
      this.canvas.addEventListener("pointerup", () => { last = null; });
      this.canvas.addEventListener("pointermove", (e) => {
        if (!last) return;
        this.azimuth += (e.clientX - last[0]) * 0.01;
        this.elevation = Math.max(-1.55, Math.min(1.55, this.elevation + (e.clientY - last[1]) * 0.01));
        last = [e.clientX, e.clientY];
        this.draw();
      });
      if (!this.canvas.hasAttribute("tabindex")) this.canvas.tabIndex = 0; // turn it from the keyboard too
      this.canvas.addEventListener("keydown", (e) => {
        const turns = { ArrowLeft: [-0.15, 0], ArrowRight: [0.15, 0], ArrowUp: [0, -0.15], ArrowDown: [0, 0.15] };
        if (turns[e.key]) {
          this.azimuth += turns[e.key][0];
          this.elevation = Math.max(-1.55, Math.min(1.55, this.elevation + turns[e.key][1]));
        } else if (e.key === "+" || e.key === "=") this.zoom = Math.min(8, this.zoom * 1.1);
        else if (e.key === "-") this.zoom = Math.max(0.2, this.zoom / 1.1);
        else return;
        e.preventDefault();
        this.draw();
      });
      this.canvas.addEventListener("wheel", (e) => {
        e.preventDefault();
        this.zoom = Math.max(0.2, Math.min(8, this.zoom * (e.deltaY < 0 ? 1.1 : 1 / 1.1)));
        this.draw();
      }, { passive: false });
    }

    async load(url) {
      this.canvas.dataset.state = "loading";
      const response = await fetch(url);
      if (!response.ok) throw new Error("cannot fetch " + url);
      const positions = parseStl(await response.arrayBuffer());
      this.count = positions.length / 3;
      const { lo, hi } = bounds(positions);
      this.centre = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
      this.radius = Math.max(1e-6, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);
      this.canvas.dataset.triangles = String(this.count / 3);
      this.canvas.dataset.size = [0, 1, 2].map((k) => (hi[k] - lo[k]).toFixed(1)).join("x");
      this.canvas.dataset.url = url;
      if (this.gl) {
        const gl = this.gl;
        gl.bindBuffer(gl.ARRAY_BUFFER, this.positionBuffer);
        gl.bufferData(gl.ARRAY_BUFFER, positions, gl.STATIC_DRAW);
        gl.bindBuffer(gl.ARRAY_BUFFER, this.normalBuffer);
        gl.bufferData(gl.ARRAY_BUFFER, flatNormals(positions), gl.STATIC_DRAW);
      }
      this.draw();
      this.canvas.dataset.state = "shown";
    }

    draw() {
      const gl = this.gl;
      if (!gl || !this.count) return;
      const { width, height } = this.canvas;
      gl.viewport(0, 0, width, height);
      gl.clearColor(1, 1, 1, 1);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      const r = this.radius / this.zoom;
      const aspect = width / height;
      const view = multiply(rotateX(-this.elevation), multiply(rotateZ(this.azimuth),
        translate(-this.centre[0], -this.centre[1], -this.centre[2])));
      const projection = ortho(aspect >= 1 ? r * aspect : r, aspect >= 1 ? r : r / aspect, this.radius * 2);
      gl.uniformMatrix4fv(gl.getUniformLocation(this.program, "view"), false, view);
      gl.uniformMatrix4fv(gl.getUniformLocation(this.program, "projection"), false, projection);
      gl.uniform3fv(gl.getUniformLocation(this.program, "colour"), [0.87, 0.81, 0.67]);
      for (const [name, buffer] of [["position", this.positionBuffer], ["normal", this.normalBuffer]]) {
        const location = gl.getAttribLocation(this.program, name);
        gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
        gl.enableVertexAttribArray(location);
        gl.vertexAttribPointer(location, 3, gl.FLOAT, false, 0, 0);
      }
      gl.drawArrays(gl.TRIANGLES, 0, this.count);
    }
  }

  function attachAll(root) {
    for (const canvas of root.querySelectorAll("canvas.stl-view")) {
      const viewer = new Viewer(canvas);
      const show = (url) => viewer.load(url).catch((e) => {
        canvas.dataset.state = "error";
        canvas.title = String(e);
      });
      show(canvas.dataset.stl);
      const buttons = canvas.parentElement.querySelectorAll("button[data-stl]");
      for (const button of buttons) button.addEventListener("click", () => show(button.dataset.stl));
    }
  }

  return { attachAll, parseStl, Viewer };
})();
