/** Global `portal`: the portal's events as this build publishes them (src/site/load.ts), handed over by the build. */
export default function (configData) {
  return configData.publisher.portal();
}
