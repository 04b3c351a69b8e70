#pragma once
/// @file
/// All of polynav's SVG output in one include:
/// - io/canvas.hpp: SvgCanvas, its styles and layout, and the text helpers;
/// - io/theme.hpp: the colours, widths, dashes and sizes every picture paints with;
/// - io/scene_picture.hpp: make_scene_canvas(), draw_scene(), draw_primitives();
/// - io/plan_picture.hpp: PathDrawing, draw_discretisation(), draw_paths(), plan_picture(),
///   draw_shaded().

#include "polynav/io/canvas.hpp"
#include "polynav/io/plan_picture.hpp"
#include "polynav/io/scene_picture.hpp"
#include "polynav/io/theme.hpp"
