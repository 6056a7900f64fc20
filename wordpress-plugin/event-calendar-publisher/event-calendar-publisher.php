<?php
/**
 * Plugin Name: Event Calendar Publisher widget
 * Description: The [event_calendar] shortcode: a calendar's upcoming events from an Event Calendar Publisher site, as tall as its content.
 * Version: 0.1.0
 * Requires at least: 5.0
 * Requires PHP: 7.4
 * License: MIT
 *
 * The shortcode writes the site's one-line embed (its fallback link and
 * embed.js, docs/widget.md): the script puts the widget's iframe in place of
 * the link and keeps it as tall as its content. Options pass through as the
 * script's data- attributes; the widget checks every value itself.
 *
 *   [event_calendar calendar="culture" category="music" count="10"]
 *
 * The site's address is set once in Settings > General ("Event calendar
 * site"), or per shortcode with site="https://events.example.org".
 */

if (!defined('ABSPATH')) {
	exit;
}

const ECP_SITE_OPTION = 'event_calendar_site';

/** Shortcode attribute => the embed script's data- attribute (docs/widget.md, "Options"). */
const ECP_DATA_ATTRIBUTES = array(
	'count'      => 'data-count',
	'view'       => 'data-view',
	'category'   => 'data-category',
	'q'          => 'data-q',
	'theme'      => 'data-theme',
	'accent'     => 'data-accent',
	'lang'       => 'data-lang',
	'compact'    => 'data-compact',
	'show_title' => 'data-show-title',
	'tz'         => 'data-tz',
	'height'     => 'data-height',
);

add_shortcode('event_calendar', 'ecp_event_calendar_shortcode');

/**
 * @param array|string $atts The shortcode's attributes.
 * @return string The embed, or nothing (a note for those who may edit) when the shortcode cannot name a calendar.
 */
function ecp_event_calendar_shortcode($atts) {
	$defaults = array_merge(
		array('calendar' => '', 'site' => '', 'title' => ''),
		array_fill_keys(array_keys(ECP_DATA_ATTRIBUTES), '')
	);
	$atts     = shortcode_atts($defaults, $atts, 'event_calendar');
	$site     = untrailingslashit(trim($atts['site'] !== '' ? $atts['site'] : (string) get_option(ECP_SITE_OPTION, '')));
	$calendar = strtolower(trim($atts['calendar']));
	// A calendar is a path segment of the site's addresses (src/model/url-scheme.ts); nothing else is written.
	if (!preg_match('#^https?://[^\s"\'<>]+$#', $site) || !preg_match('/^[a-z0-9_-]{1,80}$/', $calendar)) {
		return current_user_can('edit_posts')
			? '<p><em>' . esc_html__('[event_calendar] needs calendar="…" and the site\'s address (Settings > General, or site="…").', 'event-calendar-publisher') . '</em></p>'
			: '';
	}
	$title = $atts['title'] !== '' ? $atts['title'] : __('Events', 'event-calendar-publisher');
	$data  = '';
	foreach (ECP_DATA_ATTRIBUTES as $name => $attribute) {
		$value = trim((string) $atts[$name]);
		if ($value !== '') {
			$data .= sprintf(' %s="%s"', $attribute, esc_attr($value));
		}
	}
	return sprintf(
		'<a href="%s" data-ecp-fallback>%s</a><script src="%s" data-calendar="%s"%s async></script>',
		esc_url($site . '/calendars/' . $calendar . '/'),
		esc_html($title),
		esc_url($site . '/embed.js'),
		esc_attr($calendar),
		$data
	);
}

add_action('admin_init', 'ecp_register_site_setting');

/** "Event calendar site" in Settings > General. */
function ecp_register_site_setting() {
	register_setting(
		'general',
		ECP_SITE_OPTION,
		array('type' => 'string', 'sanitize_callback' => 'esc_url_raw', 'default' => '')
	);
	add_settings_field(
		ECP_SITE_OPTION,
		__('Event calendar site', 'event-calendar-publisher'),
		'ecp_site_field',
		'general',
		'default',
		array('label_for' => ECP_SITE_OPTION)
	);
}

function ecp_site_field() {
	printf(
		'<input type="url" class="regular-text code" id="%1$s" name="%1$s" value="%2$s" placeholder="https://events.example.org"><p class="description">%3$s</p>',
		esc_attr(ECP_SITE_OPTION),
		esc_attr((string) get_option(ECP_SITE_OPTION, '')),
		esc_html__('The address of the event calendar site; [event_calendar calendar="…"] shows its calendars.', 'event-calendar-publisher')
	);
}
