/** Global `site`: the settings of this build (src/config/site.ts), handed over by the build (src/eleventy/publisher-plugin.ts). */
export default function (configData) {
  return configData.publisher.site;
}
