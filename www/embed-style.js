// @ts-check
// <rope-lab>'s look and its attribute limits (rope-lab.js): the shadow DOM's style sheet, and
// the slowest `time-scale`. The poster <img> lies over the canvas until the first frame, fitted
// as a video's poster is (contain), on the canvas's background, as the scene is framed.

/** The slowest time-scale: a tenth of real time, slow enough to watch a collision. */
export const MIN_TIME_SCALE = 0.1;

export const CSS = `
:host{display:block;position:relative;aspect-ratio:var(--aspect);min-height:120px;background:#141414;color:#ccc;
 font:12px/1.3 system-ui,sans-serif;border-radius:6px;overflow:hidden;contain:content;-webkit-tap-highlight-color:transparent}
:host([hidden]){display:none}
:host(:focus-visible){outline:2px solid #4dd6ff;outline-offset:2px}
canvas,img{display:block;position:absolute;inset:0;width:100%;height:100%;touch-action:pan-x pan-y pinch-zoom;cursor:crosshair}
img{object-fit:contain;background:#141414}
canvas.active{touch-action:none}
.bar{position:absolute;left:6px;bottom:6px;display:flex;gap:4px}
button,select{font:inherit;color:#ddd;background:#1e1e1ee6;border:1px solid #555;border-radius:4px;padding:3px 8px;cursor:pointer}
button:focus-visible,select:focus-visible{outline:2px solid #4dd6ff}
.msg{position:absolute;left:8px;right:8px;top:6px;margin:0;color:#ff9c8a;pointer-events:none}
.msg:empty{display:none}
.play{position:absolute;left:50%;top:50%;width:56px;height:56px;margin:-28px;border-radius:50%;font-size:20px;padding:0}
[hidden]{display:none}`;
